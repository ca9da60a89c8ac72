package compat

// The help of acemq-gen compat, as acemq-gen help compat prints it.
const (
	// About is what compat does, its flags and arguments.
	About = `Compat compares the contracts under PATH with BASE, a released version, and
exits 1 naming each change that breaks readers or writers built from BASE:
events and RPC responses must stay readable by BASE's readers, commands and
RPC requests must read what BASE's writers send. When nothing breaks it says
so in one line.

With --history the contracts are checked, with the same rules, against every
committed version of each contract file in git (following renames): each
break names the commit (short hash and subject), the message and the field.

flags:
  --against BASE   a directory or git:REV (read with git show, no checkout)
  --history        against every commit that changed a contract file
  --since REV      with --history, only REV and the commits after it
  --full           demand both directions for every message
  --usage FILE     the usage graph (acemq-gen graph's JSON): removing or
                   retyping an event's field breaks only when a consumer
                   reads it (the break names the service and the read's
                   file:line); one nobody reads passes with a note`

	// Example is command lines to copy, one a line.
	Example = `acemq-gen compat --against git:HEAD~1 ./contracts
acemq-gen compat --history --since v1.0.0 ./contracts
acemq-gen compat --against git:origin/main --usage usage.json ./contracts`
)
