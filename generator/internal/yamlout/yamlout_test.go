package yamlout

import "testing"

func TestFromJSONKeepsKeyOrderAndQuotesAmbiguousStrings(t *testing.T) {
	got, err := FromJSON([]byte(`{"z":1,"a":{"y":"1","b":[true,"null"]},"m":null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "z: 1\na:\n  \"y\": \"1\"\n  b:\n    - true\n    - \"null\"\nm: null\n"
	if string(got) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
