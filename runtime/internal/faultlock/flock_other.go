//go:build !unix

package faultlock

import "os"

// Elsewhere the fault tests do not run (scripts/test.sh is a Linux script):
// the lock is a no-op.
func lock(*os.File) error   { return nil }
func unlock(*os.File) error { return nil }
