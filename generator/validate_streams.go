package generator

import "fmt"

// setAsideSuffixes are the queues the runtime derives from an owned queue
// (and from a stream, where Reject and Park copy a record).
var setAsideSuffixes = []string{"", ".dlq", ".parked"}

// checkStreamQueues refuses a stream whose queue, or one of its .dlq and
// .parked queues, is a queue the domain already declares: a command's or an
// rpc's queue (or its .dlq or .parked), or another stream's.
func checkStreamQueues(dom *domain, d *diags) {
	taken := map[string]symbol{}
	claim := func(queue, what string, p Pos) {
		for _, s := range setAsideSuffixes {
			if _, dup := taken[queue+s]; !dup {
				taken[queue+s] = symbol{what: fmt.Sprintf("%s (queue %q)", what, queue+s), pos: p}
			}
		}
	}
	for _, m := range dom.Messages {
		if m.Kind == commandKind {
			claim(m.Queue, "command "+m.Name, m.Pos)
		}
	}
	for _, r := range dom.RPCs {
		claim(r.Queue, "rpc "+r.Name, r.Pos)
	}
	for _, m := range dom.Streams {
		for _, s := range setAsideSuffixes {
			if other, dup := taken[m.Queue+s]; dup {
				d.errorf(m.Pos, "stream %s: queue %q (the stream or its .dlq or .parked) is already used by %s at %s", m.Name, m.Queue+s, other.what, other.pos)
				break
			}
		}
		claim(m.Queue, "stream "+m.Name, m.Pos)
	}
}
