// Package goldenjson compiles the golden packages of every JSON form the
// generator writes (records, enums, unions, optionals, arrays, maps,
// decimals, dates, timestamps, time-*, uuids, fixed and bytes) so its tests
// can fuzz each generated type's AppendJSON and UnmarshalAcemqJSON against
// encoding/json. Each subdirectory's .go file is a symbolic link to the
// golden's want/ file (<name>.go.golden) under testdata/golden: the fuzzed code is the golden
// itself, which `go test ./generator -run TestGolden -update` keeps current.
package goldenjson
