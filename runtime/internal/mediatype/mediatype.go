// Package mediatype is the content-type test the text codecs (yaml, toml,
// xml) share: which media types a codec reads.
package mediatype

import (
	"slices"
	"strings"
)

// Claims reports whether contentType, lower-cased and without parameters
// ("; charset=...") or surrounding space, is one of types or ends in
// suffix (such as "+toml"). It is false for "" unless types holds "" or suffix is "".
func Claims(contentType string, types []string, suffix string) bool {
	mt := Of(contentType)
	return slices.Contains(types, mt) || strings.HasSuffix(mt, suffix)
}

// Of returns contentType lower-cased, without parameters or surrounding
// space.
func Of(contentType string) string {
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}
