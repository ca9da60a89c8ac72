//go:build !race

package rabbitmq

// raceSlowdown is 1 without the race detector: the hostile-input suite's
// bounds are exactly as docs/security.md states them.
const raceSlowdown = 1
