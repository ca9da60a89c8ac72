// Package schemas ships the JSON Schema of the acemq contract format
// (docs/contracts.md), for editors and for tools that validate contracts before
// acemq-gen reads them:
//
//	contract.acemq.yaml ──▶ editor / yaml-language-server ──▶ Contract (JSON Schema)
//	                    └─▶ acemq-gen vet (the authority: positions, names, types)
//
// Tests keep the schema in step with the generator's parser: every key the
// parser reads is in the schema, the schema names no key outside the format,
// and every contract of the golden cases, the examples and the fresh-module
// test validates against it.
package schemas

import _ "embed"

// Contract is the JSON Schema (draft 2020-12) of a YAML contract file. It is
// read-only; do not modify the slice.
//
//go:embed contract.schema.json
var Contract []byte
