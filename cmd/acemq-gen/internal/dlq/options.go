// Package dlq is acemq-gen dlq: it lists, shows and redrives the
// dead-letter and parked queues a set of contracts implies.
package dlq

import (
	"context"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/ops"
	"github.com/acemq/acemq-gen/generator"
	"github.com/acemq/acemq-gen/runtime/acemq"
)

// Options are what every dlq operation is given; each reads the fields its
// subcommand has flags for.
type Options struct {
	URL      string   // the broker's URL
	Registry string   // the schema registry's URL ("" none)
	Services []string // list: services whose event queues to include
	Raw      bool     // show: print the bytes instead of decoding them
	Type     string   // redrive: only messages of this message name or envelope type
	Reason   string   // redrive: only messages whose reason contains this
	Where    []string // redrive: only messages whose payload has field=value
	Limit    int      // redrive: move at most this many (0 all)
	Rate     float64  // redrive: at most this many a second (0 no limit)
	DryRun   bool     // redrive: say what would move, changing nothing
	Queue    string   // show, redrive: the queue to read
	Paths    []string // the contract files or directories
}

// run is the preamble every dlq subcommand shares: it reads the contracts
// of o.Paths, lets prepare check the rest of o without the broker, and only
// then connects to o.URL and runs what prepare returned.
func run(ctx context.Context, o Options, prepare func([]generator.Entry) (func(*acemq.Conn) error, error)) error {
	entries, err := ops.ReadCatalog(o.Paths)
	if err != nil {
		return err
	}
	do, err := prepare(entries)
	if err != nil {
		return err
	}
	conn, err := ops.Connect(ctx, o.URL)
	if err != nil {
		return err
	}
	defer conn.Close()
	return do(conn)
}
