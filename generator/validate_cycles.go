package generator

import "strings"

// checkCycles reports every record that contains itself through fields that
// are neither optional nor collections: such a value would be infinite (and
// is not a valid Go type).
func checkCycles(dom *domain, d *diags) {
	state := map[*Record]int{} // 0 unvisited, 1 on the path, 2 done
	for _, rec := range dom.Records {
		visit(rec, nil, state, d)
	}
}

func visit(rec *Record, path []*Record, state map[*Record]int, d *diags) {
	switch state[rec] {
	case 1:
		reportCycle(rec, path, d)
		return
	case 2:
		return
	}
	state[rec] = 1
	path = append(path, rec)
	for _, f := range rec.Fields {
		if f.Type != nil && f.Type.Kind == Named {
			visit(f.Type.Record, path, state, d)
		}
	}
	state[rec] = 2
}

func reportCycle(rec *Record, path []*Record, d *diags) {
	start := 0
	for path[start] != rec {
		start++
	}
	names := []string{}
	for _, r := range path[start:] {
		names = append(names, r.Name)
	}
	names = append(names, rec.Name)
	d.errorf(rec.Pos, "cyclic type: %s contains itself (%s); make a field on the cycle optional (T?) or a list",
		rec.Name, strings.Join(names, " → "))
}
