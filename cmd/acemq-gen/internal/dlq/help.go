package dlq

// The help of acemq-gen dlq, as acemq-gen help dlq prints it.
const (
	// About is what dlq does, its flags and arguments.
	About = `Dlq works on the dead-letter ({queue}.dlq) and parked ({queue}.parked) queues
the contracts under PATH imply, with each message's contract codec:

  dlq list --url URL [--service S]... PATH...
      every dead-letter and parked queue of a command, an RPC and, with
      --service, the service's event queues: its message count and its
      messages grouped by type and reason, oldest first, with attempts
  dlq show --url URL [--raw] QUEUE PATH...
      each message of QUEUE decoded (JSON, Avro, registry framing with the
      contract's reader schema, decryption) and printed as JSON with its
      envelope; --raw prints the bytes; a message no contract describes is
      shown as bytes with a note
  dlq redrive --url URL [--type T] [--reason TEXT] [--where field=value]...
              [--limit N] [--rate N/s] [--dry-run] QUEUE PATH...
      sends the matching messages of QUEUE back where the contract says they
      belong (a command to its exchange and routing key, an event to its
      consumer's queue, an RPC request to its queue) through patterns.Replay:
      attempt reset to 1, reason cleared, stamped acemq-replayed-from/-at/
      -count; each original is acked only after its copy is confirmed

List and show return every message to where it was. Flags may come before,
between or after QUEUE and the paths.

flags:
  --url URL          the broker (amqp://user:pass@host:5672/vhost); its password
                     is never printed and must percent-encode / ? # @ (%2F %3F
                     %23 %40), or the URL is refused
  --registry URL     the schema registry, for avro-registered messages
  --service S        list: include S's event queues (repeatable)
  --raw              show: the bytes, not decoded
  --type T           redrive: only messages of T (name or envelope type)
  --reason TEXT      redrive: only messages whose reason contains TEXT
  --where f=v        redrive: only messages whose payload field f is v (repeatable)
  --limit N          redrive: move at most N
  --rate N/s         redrive: move at most N a second
  --dry-run          redrive: say what would move, change nothing

The keys of encrypted messages come from ACEMQ_KEYS as id=base64secret,…
(never printed). Exit 0 done, 1 failed, 2 usage or a broker that cannot be
reached.`

	// Example is command lines to copy, one a line.
	Example = `acemq-gen dlq list --url amqp://guest:guest@localhost:5672/ --service billing ./contracts
acemq-gen dlq show --url amqp://guest:guest@localhost:5672/ orders.cancel-order.dlq ./contracts
acemq-gen dlq redrive --url amqp://guest:guest@localhost:5672/ --reason timeout --limit 100 orders.cancel-order.dlq ./contracts`
)
