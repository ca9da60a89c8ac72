package mediatype

import "testing"

func TestClaimsIgnoresCaseParametersAndSpace(t *testing.T) {
	types := []string{"application/toml", "text/toml"}
	for ct, want := range map[string]bool{
		"application/toml": true, " Text/TOML ; charset=utf-8": true, "application/vnd.acme+toml": true,
		"": false, "application/json": false, "application/tomlx": false, "toml": false,
	} {
		if got := Claims(ct, types, "+toml"); got != want {
			t.Errorf("Claims(%q) = %v, want %v", ct, got, want)
		}
	}
}
