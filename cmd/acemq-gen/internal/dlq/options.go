// Package dlq is acemq-gen dlq: it lists, shows and redrives the
// dead-letter and parked queues a set of contracts implies.
package dlq

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
