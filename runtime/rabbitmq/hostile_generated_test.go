package rabbitmq

// generatedJSONBombs are jsonBombs for a payload acemq-gen generated, which
// acemq.JSONCodec decodes through its UnmarshalAcemqJSON after the same
// pre-checks: the same refusals, within the same bounds.
func generatedJSONBombs() []bomb {
	return []bomb{
		{"nesting", []byte(rep("[", 100_000) + rep("]", 100_000)), "json: nesting deeper than 100"},
		{"nested-objects", []byte(`{"authors":[` + rep(`{"name":`, 50_000) + "null" + rep("}", 50_000) + `]}`), "json: nesting deeper than 100"},
		{"width", []byte(`{"isbn":"a","tags":[` + rep(`0,`, 1_100_000) + `0]}`), "json: more than 1000000 elements"},
		{"truncation", []byte(`{"isbn":"a","tags":["x"`), "unexpected end of JSON input"},
		{"duplicates", []byte(`{"isbn":"a","isbn":"b","tags":[]}`), `field "isbn" of catalog.BookAdded is given twice`},
		{"null", []byte(`null`), "the message is null where a catalog.BookAdded belongs"},
		{"empty-object", []byte(`{}`), `requires field "isbn"`},
	}
}
