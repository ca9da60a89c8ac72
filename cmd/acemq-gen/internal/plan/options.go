// Package plan is acemq-gen plan: it compares what a set of contracts
// declares with what a broker holds, and can declare what is missing.
package plan

// Options are what plan is given.
type Options struct {
	URL        string   // the broker's URL
	Management string   // the management API's URL ("" compare over AMQP)
	Services   []string // services whose event queues to include
	Apply      bool     // declare what is missing
	Paths      []string // the contract files or directories
}
