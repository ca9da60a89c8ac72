// Command plot draws the side-by-side harness's results as an SVG: per
// scenario, the median msg/s and the median cpu-µs/msg of every contender,
// the runtime beside raw amqp091-go and Watermill, so that a reader sees the
// result without reading numbers. It reads the CSV that cmd/sidebyside
// writes (every repetition) and takes the median of each contender's
// repetitions, as the harness's table does.
//
//	cd bench
//	go run ./cmd/sidebyside -csv sidebyside.csv
//	go run ./cmd/plot -csv sidebyside.csv -o ../docs/performance.svg
//
// Pure Go, no external tool: the SVG is written by hand.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	in := flag.String("csv", "sidebyside.csv", "the CSV cmd/sidebyside wrote")
	out := flag.String("o", "../docs/performance.svg", "where to write the SVG")
	title := flag.String("title", "acemq beside raw amqp091-go and Watermill", "the plot's title")
	flag.Parse()
	if err := run(*in, *out, *title); err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
}

// run reads the CSV at in and writes the SVG to out.
func run(in, out, title string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	groups, err := readResults(f)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := writeSVG(w, title, groups); err != nil {
		_ = w.Close()
		return err
	}
	fmt.Fprintf(os.Stderr, "wrote %s\n", out)
	return w.Close()
}
