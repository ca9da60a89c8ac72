package registry

// The help of acemq-gen registry, as acemq-gen help registry prints it.
const (
	// About is what registry does, its flags and arguments.
	About = `Registry works on a Confluent Schema Registry (or a server speaking its REST
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

	// Example is command lines to copy, one a line.
	Example = `ACEMQ_REGISTRY_PASSWORD=secret acemq-gen registry check --url https://registry.example.com --user ci ./contracts
acemq-gen registry push --url http://localhost:8081 ./contracts`
)
