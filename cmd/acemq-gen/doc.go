// Command acemq-gen generates typed Go messaging code from acemq contracts.
//
//	acemq-gen generate  [-o DIR] [--asyncapi] PATH...                                             write one package per domain into DIR/<package>/
//	acemq-gen check     [-o DIR] [--asyncapi] PATH...                                             exit 1, printing a diff, when DIR is not what generate would write
//	acemq-gen asyncapi  [-o DIR] [--format yaml|json] [--server NAME=URL] PATH...                 write one AsyncAPI 3.0 document per domain into DIR
//	acemq-gen vet       PATH...                                                                   validate only; warnings for deprecated use
//	acemq-gen compat    --against BASE | --history [--since REV] [--full] [--usage FILE] PATH...  exit 1 when a change breaks readers or writers built from BASE or any committed version
//	acemq-gen graph     [--format F] [--check] [--against git:REV] MODULE...                      who publishes, consumes and serves what, and the fields each reads, from the services' Go code
//	acemq-gen init      [-o DIR] [DOMAIN]                                                         scaffold contracts/DOMAIN.acemq.yaml and a gen.go holding the go:generate line
//	acemq-gen dlq       list|show|redrive --url URL [flags] [QUEUE] PATH...                       list, show decoded and redrive the dead letters the contracts imply
//	acemq-gen plan      --url URL [--management URL] [--service S]... [--apply] PATH...           compare the contracts' topology with a live broker; exit 1 when it differs
//	acemq-gen catalog   -o DIR [--usage FILE] [--history] [--since REV] [--check] PATH...         write the contract catalog, a static site of every domain, message, type, queue and service
//	acemq-gen registry  push|check --url URL [flags] [PATH...]                                    register the avro-registered schemas, or exit 1 when one would break what the registry holds
//	acemq-gen version                                                                             print the version
//	acemq-gen help      [COMMAND]                                                                 list the commands, or show a command's usage, flags and an example
//
// PATH is a contract file or a directory searched recursively for
// *.acemq.yaml, *.acemq.yml and *.avsc; the files a contract names in imports:
// and schema: are read too. Exit codes, the same in every command: 0 ok, 1
// findings, 2 usage or an unreachable service. Flags may come before or
// after the arguments. COMMAND -h (or --help) prints that command's help to
// stdout; an unknown command or flag is a usage error naming the nearest
// one.
package main
