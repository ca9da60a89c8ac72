package ops

import (
	"errors"
	"fmt"
	"io"

	"github.com/acemq/acemq-gen/runtime/acemq"
)

// The exit codes of every acemq-gen command: one rule for all of them.
const (
	ExitOK       = 0 // done; nothing found
	ExitFindings = 1 // findings (differences, breaks, contract errors), or work that failed part-way
	ExitUsage    = 2 // a usage mistake, or a service (broker, management API, registry) that cannot be reached
)

// ErrUnreachable is in the chain of every error of a service that cannot be
// reached or will not answer: the command could not start its work, and
// ExitCode makes it ExitUsage, as in every command.
var ErrUnreachable = errors.New("acemq-gen: a service cannot be reached")

// unreachable marks its error with ErrUnreachable, keeping its text.
type unreachable struct{ error }

func (u unreachable) Unwrap() error      { return u.error }
func (unreachable) Is(target error) bool { return target == ErrUnreachable }

// Unreachable marks err as a service that cannot be reached (nil for nil).
func Unreachable(err error) error {
	if err == nil {
		return nil
	}
	return unreachable{err}
}

// CannotConnect is the error of a failed connection to the broker at raw,
// marked Unreachable and never showing raw's credentials.
func CannotConnect(raw string, err error) error {
	return Unreachable(fmt.Errorf("acemq-gen: cannot connect to %s: %w", acemq.RedactURL(raw), err))
}

// ExitCode is the exit code of a command that failed with err: ExitUsage
// when a service could not be reached, ExitFindings otherwise.
func ExitCode(err error) int {
	if errors.Is(err, ErrUnreachable) {
		return ExitUsage
	}
	return ExitFindings
}

// Fail prints err on stderr and returns its ExitCode.
func Fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, err)
	return ExitCode(err)
}
