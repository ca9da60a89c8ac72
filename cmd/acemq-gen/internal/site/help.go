package site

// The help of acemq-gen catalog, as acemq-gen help catalog prints it.
const (
	// About is what catalog does, its flags and arguments.
	About = `Catalog writes a static site into DIR from the contracts under PATH (plain
HTML and CSS and a small search script; nothing is fetched when it is viewed,
so it opens from the file system or any static host): an index of the
domains with their messages, RPCs and types, searchable by message, field
and header name; a page per message (kind, doc, deprecation, codec and
content type, routing key, queues, retry policy and its waits, dead-letter
and parked queues, headers, payload fields with their types linked, Avro
schema, an example payload); a page per type; and per domain a topology
diagram (SVG) of its exchanges, bindings, queues, retry rungs and
dead-letter routes. The same inputs give the same bytes. Catalog files DIR
no longer needs are removed.

flags:
  -o, --output DIR   the site's directory (required)
  --usage FILE       the usage graph acemq-gen graph writes: the services
                     that publish and consume each message, their event
                     queues, and the fields their handlers read
  --history          each message's versions through git, with compat's
                     verdict against the version before and the commit
  --since REV        with --history, only REV and the commits after it
  --check            write nothing; exit 1, naming each file, when DIR is
                     missing a file, holds a different or a stale one`

	// Example is command lines to copy, one a line.
	Example = `acemq-gen catalog -o site ./contracts
acemq-gen catalog -o site --usage usage.json --history ./contracts
acemq-gen catalog -o site --check ./contracts`
)
