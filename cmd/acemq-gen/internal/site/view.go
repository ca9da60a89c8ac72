package site

import (
	"html/template"
	"strings"
	"time"

	"github.com/acemq/acemq-gen/cmd/acemq-gen/internal/sysgraph"
	"github.com/acemq/acemq-gen/generator"
)

// site is the view model of a catalog: every page's data, linked.
type site struct {
	Domains  []*domainView
	Services []*serviceView
	HasUsage bool
	messages map[string]*messageView // by msgKey
	types    map[string]*typeView    // by domain + "." + name
	topo     *topology
}

// domainView is one domain's page.
type domainView struct {
	generator.CatalogDomain
	Path     string
	Groups   []kindGroup
	Types    []*typeView
	Queues   []queueView
	Diagram  template.HTML
	Messages []*messageView
}

// kindGroup is a domain's messages of one kind (events, commands, RPCs,
// streams or any kind the catalog holds), in catalog order.
type kindGroup struct {
	Kind, Title string
	Messages    []*messageView
}

// messageView is one message's (an RPC's) page.
type messageView struct {
	generator.Entry
	Path, DomainPath       string
	Policy                 string
	Schedule               []retryWait
	Queues                 []queueView
	Avro                   string
	Fields, ResponseFields []fieldView
	Uses                   []useView
	Versions               []Version
}

// retryWait is one wait of a retry policy and the rung queues that hold it
// in the broker (none: the consumer waits in process).
type retryWait struct {
	Wait  time.Duration
	Rungs []string
}

// typeView is one named type's page.
type typeView struct {
	generator.Type
	Path, DomainPath string
	Fields           []fieldView
	UsedBy           []*messageView
}

// fieldView is one row of a payload or record table.
type fieldView struct {
	generator.Field
	TypeHTML template.HTML
	Optional bool
	Default  string
	Root     string
}

// serviceView is one service's page, from the usage graph.
type serviceView struct {
	sysgraph.Service
	Path string
	Uses []useView
}

// useView is one use of a message by a service: Role is publishes, sends,
// calls, consumes or serves.
type useView struct {
	Role    string
	Service *serviceView
	Message *messageView
	Use     sysgraph.Use
}

// Reads spells the fields a consumer's handler reads.
func (u useView) Reads() string {
	if u.Use.AllFields {
		return "every field (" + u.Use.Why + ")"
	}
	var fs []string
	for _, f := range u.Use.Fields {
		fs = append(fs, f.Field)
	}
	return strings.Join(fs, ", ")
}

// msgKey names a message across domains and kinds.
func msgKey(domain, name string) string { return domain + "\x00" + name }

// kindTitle is the heading of a group of messages of kind.
func kindTitle(kind string) string {
	switch kind {
	case "rpc":
		return "RPCs"
	case "":
		return "Messages"
	}
	return strings.ToUpper(kind[:1]) + kind[1:] + "s"
}
