package main

// The help of the operations commands, dlq and plan.
const (
	dlqAbout = `Dlq works on the dead-letter ({queue}.dlq) and parked ({queue}.parked) queues
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

List and show return every message to where it was. Flags come before
QUEUE and the paths.

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
(never printed). Exit 0 done, 1 failed, 2 usage.`
	dlqExample = `acemq-gen dlq list --url amqp://guest:guest@localhost:5672/ --service billing ./contracts
acemq-gen dlq show --url amqp://guest:guest@localhost:5672/ orders.cancel-order.dlq ./contracts
acemq-gen dlq redrive --url amqp://guest:guest@localhost:5672/ --reason timeout --limit 100 orders.cancel-order.dlq ./contracts`

	planAbout = `Plan compares the topology the contracts under PATH imply (the domains'
exchanges, owned queues, the listed services' event queues, their dead-letter
and retry queues, bindings, queue types and arguments) with the live broker,
one difference a line:

  missing     the contract implies it and the broker has none
  different   it exists with another argument (named, expected and actual)
  extra       a binding or queue argument the contract does not imply
  immutable   a difference RabbitMQ cannot change in place (a queue's type,
              durability or dead-letter arguments), with the steps that
              migrate it without losing messages

With --management it reads the management HTTP API
(http://user:pass@host:15672, never printed); without it, it checks what AMQP
can (existence and argument equality, by passive and confirming declares on
throwaway channels) and says what it could not check. --apply declares what
is missing and nothing else, and prints what it did.

flags:
  --url URL          the broker (AMQP)
  --management URL   the management API
  --service S        include S's event queues (repeatable)
  --apply            declare what is missing

Exit 0 when nothing differs, 1 when something does, 2 on error.`
	planExample = `acemq-gen plan --url amqp://guest:guest@localhost:5672/ --management http://guest:guest@localhost:15672 --service billing ./contracts`

	registryAbout = `Registry works on a Confluent Schema Registry (or a server speaking its REST
API) with the avro-registered messages of the contracts under PATH (default .):

  registry push --url URL [PATH...]
      registers each message's schema under its subject, as the runtime's
      producers would (POST /subjects/{subject}/versions), and prints
      "subject version id" a line on stdout; a schema the subject already
      holds keeps its version and id
  registry check --url URL [PATH...]
      fetches every version of each subject and checks the message against
      each with acemq-gen's role-aware rules (an event: every registered
      reader must read the new schema; a command: the new reader must read
      every registered writer), then asks the registry for its own verdict
      (POST /compatibility/subjects/{subject}/versions/latest). Each break
      names the subject, the version and the field; a line on stdout per
      message gives both verdicts

Push registers what the runtime's producers register: the contract's full
schema, defaults and docs included, so a registry checking BACKWARD accepts a
new field that has a default. A version registered in canonical form (without
defaults) is read as it is: a field it reads without a default is one the
new schema of an event must keep.

flags:
  --url URL        the registry (http or https; also ACEMQ_REGISTRY_URL)
  --user USER      basic-auth user (also ACEMQ_REGISTRY_USER); the password
                   comes from ACEMQ_REGISTRY_PASSWORD only, never printed
  --ca FILE        trust the PEM certificates in FILE instead of the system roots
  --timeout D      the longest wait for one request (default 10s)

Exit 0 done, 1 a schema breaks or is refused, 2 usage or a registry that
cannot be reached or will not answer.`
	registryExample = `ACEMQ_REGISTRY_PASSWORD=secret acemq-gen registry check --url https://registry.example.com --user ci ./contracts
acemq-gen registry push --url http://localhost:8081 ./contracts`
)
