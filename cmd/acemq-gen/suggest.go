package main

import "github.com/acemq/acemq-gen/internal/spelling"

// suggest and didYouMean are the shared spelling helpers, which the
// generator's diagnostics of unknown contract keys use too.
var (
	suggest    = spelling.Nearest
	didYouMean = spelling.DidYouMean
)
