package plan

// The help of acemq-gen plan, as acemq-gen help plan prints it.
const (
	// About is what plan does, its flags and arguments.
	About = `Plan compares the topology the contracts under PATH imply (the domains'
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
  --url URL          the broker: amqp:// or amqps://, one host or several
                     (amqp://user:pass@h1:5672,h2:5672/vhost), tried in turn
  --management URL   the management API
  --service S        include S's event queues (repeatable)
  --apply            declare what is missing

Exit 0 when nothing differs, 1 when something does (or a contract has an
error), 2 usage or a broker or management API that cannot be reached.`

	// Example is command lines to copy, one a line.
	Example = `acemq-gen plan --url amqp://guest:guest@localhost:5672/ --management http://guest:guest@localhost:15672 --service billing ./contracts`
)
