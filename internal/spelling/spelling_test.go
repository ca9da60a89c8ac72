package spelling

import "testing"

func TestNearestSuggestsTheCandidateATypoMeant(t *testing.T) {
	keys := []string{"doc", "fields", "enum", "default", "fixed", "aliases", "go"}
	for got, want := range map[string]string{
		"feilds":   "fields", // adjacent letters swapped
		"field":    "fields", // one letter short
		"dflt":     "",       // too far from default for its length
		"x":        "",       // one letter is not a typo of anything
		"colour":   "",
		"defaults": "default",
	} {
		if s := Nearest(got, keys); s != want {
			t.Errorf("Nearest(%q) = %q, want %q", got, s, want)
		}
	}
}

func TestNearestFallsBackToAPrefix(t *testing.T) {
	if s := Nearest("gen", []string{"generate", "vet"}); s != "generate" {
		t.Errorf("Nearest(gen) = %q, want generate", s)
	}
}

func TestDidYouMeanIsEmptyWithoutASuggestion(t *testing.T) {
	if s := DidYouMean(""); s != "" {
		t.Errorf("DidYouMean(\"\") = %q", s)
	}
	if s := DidYouMean("fields"); s != `; did you mean "fields"?` {
		t.Errorf("DidYouMean(fields) = %q", s)
	}
}
