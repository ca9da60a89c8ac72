// Package goldenjson builds the golden contracts of every JSON form the
// generator writes (records, enums, unions, optionals, arrays, maps,
// decimals, dates, timestamps, time-*, uuids, fixed and bytes) into real
// packages, so its tests can fuzz each generated type's AppendJSON and
// UnmarshalAcemqJSON against encoding/json. Regenerate with go generate
// after a change to the generator's output, as the examples are.
package goldenjson

//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o arrays_maps ../../../testdata/golden/arrays_maps
//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o enums ../../../testdata/golden/enums
//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o fixed_decimal ../../../testdata/golden/fixed_decimal
//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o json_forms ../../../testdata/golden/json_forms
//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o logical_types ../../../testdata/golden/logical_types
//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o optional_types ../../../testdata/golden/optional_types
//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o records_defaults ../../../testdata/golden/records_defaults
//go:generate go run github.com/acemq/acemq-gen/cmd/acemq-gen generate -o unions ../../../testdata/golden/unions
