package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// scenarioResults is one scenario's contenders, in the CSV's order.
type scenarioResults struct {
	name       string
	contenders []contenderResult
}

// contenderResult is the median of one contender's repetitions.
type contenderResult struct {
	name     string
	rate     float64 // msg/s
	cpuPerMs float64 // cpu-µs per message
	reps     int
}

// samples are one contender's repetitions while reading.
type samples struct{ rates, cpus []float64 }

// readResults reads the harness's CSV (a header row naming at least
// scenario, contender, msg_per_s and cpu_us_per_msg, then one row per
// repetition) into medians per scenario and contender, in first-seen order.
func readResults(r io.Reader) ([]scenarioResults, error) {
	rows, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 {
		return nil, errors.New("no results: the CSV has no row after its header")
	}
	col, err := columns(rows[0], "scenario", "contender", "msg_per_s", "cpu_us_per_msg")
	if err != nil {
		return nil, err
	}
	var order []scenarioResults
	got := map[[2]string]*samples{}
	for i, row := range rows[1:] {
		if err := collect(row, col, got, &order); err != nil {
			return nil, fmt.Errorf("line %d: %w", i+2, err)
		}
	}
	return medians(order, got), nil
}

// columns finds each named column in header.
func columns(header []string, names ...string) (map[string]int, error) {
	col := map[string]int{}
	for _, name := range names {
		i := slices.Index(header, name)
		if i < 0 {
			return nil, fmt.Errorf("the header has no %q column", name)
		}
		col[name] = i
	}
	return col, nil
}

// collect adds one repetition's row to got, noting new scenarios and
// contenders in order.
func collect(row []string, col map[string]int, got map[[2]string]*samples, order *[]scenarioResults) error {
	rate, err := strconv.ParseFloat(row[col["msg_per_s"]], 64)
	if err != nil {
		return fmt.Errorf("msg_per_s: %w", err)
	}
	cpu, err := strconv.ParseFloat(row[col["cpu_us_per_msg"]], 64)
	if err != nil {
		return fmt.Errorf("cpu_us_per_msg: %w", err)
	}
	key := [2]string{row[col["scenario"]], row[col["contender"]]}
	s, ok := got[key]
	if !ok {
		s = &samples{}
		got[key] = s
		addContender(order, key[0], key[1])
	}
	s.rates, s.cpus = append(s.rates, rate), append(s.cpus, cpu)
	return nil
}

// addContender appends contender to scenario in order, adding the scenario
// when it is new.
func addContender(order *[]scenarioResults, scenario, contender string) {
	i := slices.IndexFunc(*order, func(s scenarioResults) bool { return s.name == scenario })
	if i < 0 {
		*order = append(*order, scenarioResults{name: scenario})
		i = len(*order) - 1
	}
	(*order)[i].contenders = append((*order)[i].contenders, contenderResult{name: contender})
}

// medians fills every contender's medians from got.
func medians(order []scenarioResults, got map[[2]string]*samples) []scenarioResults {
	for i := range order {
		for j := range order[i].contenders {
			c := &order[i].contenders[j]
			s := got[[2]string{order[i].name, c.name}]
			c.rate, c.cpuPerMs, c.reps = median(s.rates), median(s.cpus), len(s.rates)
		}
	}
	return order
}

// median of v (the mean of the middle two for an even count).
func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 0 {
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}
