package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeNamesTheTestPortsOfScriptsTestSh reads the ports README's set-up
// section names for each variable of scripts/test.sh that moves a port, and
// checks them against the script's defaults and the offsets scripts/broker.sh
// derives from them (management, TLS, the cluster's shared epmd). Every port
// variable of test.sh must have its row.
func TestReadmeNamesTheTestPortsOfScriptsTestSh(t *testing.T) {
	defaults := portDefaults(t, readRepoFile(t, "scripts/test.sh"))
	broker := readRepoFile(t, "scripts/broker.sh")
	offset := func(pattern string) int {
		m := regexp.MustCompile(pattern).FindStringSubmatch(broker)
		if m == nil {
			t.Fatalf("scripts/broker.sh has no default matching %s", pattern)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	mgmt := offset(`MGMT_PORT=\$\{RABBIT_MGMT_PORT:-\$\(\(PORT \+ (\d+)\)\)\}`)
	tls := offset(`TLS_PORT=\$\{RABBIT_TLS_PORT:-\$\(\(PORT \+ (\d+)\)\)\}`)
	epmd := offset(`RABBIT_EPMD_PORT:-\$\(\(CPORTS\[0\] \+ (\d+)\)\)`)
	first := func(v string) int { return defaults[v][0] }
	want := map[string][]int{
		"ACEMQ_TEST_PORT":          {first("ACEMQ_TEST_PORT"), first("ACEMQ_TEST_PORT") + mgmt},
		"ACEMQ_TEST_FAULT_PORT":    {first("ACEMQ_TEST_FAULT_PORT"), first("ACEMQ_TEST_FAULT_PORT") + tls},
		"ACEMQ_TEST_CLUSTER_PORTS": append(slices.Clone(defaults["ACEMQ_TEST_CLUSTER_PORTS"]), first("ACEMQ_TEST_CLUSTER_PORTS")+epmd),
		"ACEMQ_TEST_POSTGRES_PORT": {first("ACEMQ_TEST_POSTGRES_PORT")},
	}
	if got := slices.Sorted(maps.Keys(defaults)); !slices.Equal(got, slices.Sorted(maps.Keys(want))) {
		t.Fatalf("scripts/test.sh's port variables are %v; this test knows %v", got, slices.Sorted(maps.Keys(want)))
	}
	rows := readmePortRows(t)
	for v, ports := range want {
		slices.Sort(ports)
		if got := rows[v]; !slices.Equal(got, ports) {
			t.Errorf("README's set-up section gives %s the ports %v; scripts/test.sh takes %v", v, got, ports)
		}
	}
}

// portDefaults is each ACEMQ_TEST_*PORT* variable of a script, with the
// ports of its default (${VAR:-5679} or ${VAR:-5711 5712 5713}).
func portDefaults(t *testing.T, script string) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, m := range regexp.MustCompile(`\$\{(ACEMQ_TEST_\w*PORTS?):-([0-9 ]+)\}`).FindAllStringSubmatch(script, -1) {
		out[m[1]] = numbers(m[2])
	}
	if len(out) == 0 {
		t.Fatal("scripts/test.sh has no ${ACEMQ_TEST_…PORT:-default}")
	}
	return out
}

// readmePortRows is, for each row of the set-up section's table naming a
// variable in its last column, the ports of its second column, sorted.
func readmePortRows(t *testing.T) map[string][]int {
	t.Helper()
	_, section, ok := strings.Cut(readRepoFile(t, "README.md"), "\n## Set up\n")
	if !ok {
		t.Fatal("README.md has no set-up section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string][]int{}
	for line := range strings.SplitSeq(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 {
			continue
		}
		if v := regexp.MustCompile("`(ACEMQ_TEST_\\w+)`").FindStringSubmatch(cells[3]); v != nil {
			ports := numbers(cells[2])
			slices.Sort(ports)
			rows[v[1]] = ports
		}
	}
	return rows
}

// numbers is every run of digits of s, as ints.
func numbers(s string) []int {
	var out []int
	for _, d := range regexp.MustCompile(`\d+`).FindAllString(s, -1) {
		n, _ := strconv.Atoi(d)
		out = append(out, n)
	}
	return out
}

// readRepoFile is a file of the repository, by its slash-separated path.
func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
