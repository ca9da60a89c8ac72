// Command acemq-vet runs the acemq-vet analyzers (package
// github.com/acemq/acemq-gen/generator/vet) over Go packages:
//
//	go run github.com/acemq/acemq-gen/cmd/acemq-vet ./...
//	go vet -vettool=$(which acemq-vet) ./...
//
// It is a multichecker: -help lists the analyzers, -NAME=false turns one
// off, and the exit status is 3 when it reports a diagnostic (1 when a
// package fails to load).
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/acemq/acemq-gen/generator/vet"
)

func main() {
	multichecker.Main(vet.Analyzers()...)
}
