//go:build !race

package acemq_test

// raceEnabled: the race detector is off.
const raceEnabled = false
