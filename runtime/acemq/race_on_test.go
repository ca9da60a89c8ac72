//go:build race

package acemq_test

// raceEnabled: the race detector is on. sync.Pool then drops a share of what
// is put into it on purpose, so allocation budgets are not measured.
const raceEnabled = true
