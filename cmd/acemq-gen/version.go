package main

import "runtime/debug"

// version is the module version acemq-gen was built from, or "(devel)". It
// is printed by `acemq-gen version` and never written into generated files.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
