//go:build race

package rabbitmq

// raceSlowdown widens the hostile-input suite's time bounds under the race
// detector, which slows Go code several times over; scripts/test.sh also runs
// the suite without it, where the bounds are the issue's own (1 s).
const raceSlowdown = 3
