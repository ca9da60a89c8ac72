package site

import (
	"path"
	"strings"
)

// links is every relative link (href and src) of an HTML file, resolved
// against its path: what a link checker follows.
func links(f File) []string {
	var out []string
	s := string(f.Data)
	for _, attr := range []string{`href="`, `src="`} {
		for rest := s; ; {
			i := strings.Index(rest, attr)
			if i < 0 {
				break
			}
			rest = rest[i+len(attr):]
			target, _, _ := strings.Cut(rest[:strings.IndexByte(rest, '"')], "#")
			if target != "" && !strings.Contains(target, ":") {
				out = append(out, path.Join(path.Dir(f.Path), target))
			}
		}
	}
	return out
}
