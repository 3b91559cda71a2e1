package groundtruth

import "strings"

// FoldSeparators lower-cases s and turns every run of "-" and "_" into one
// "-", dropping leading runs: ids written with either separator compare
// equal.
func FoldSeparators(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	sep := false
	for _, r := range strings.ToLower(s) {
		if r == '-' || r == '_' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteRune(r)
	}
	return b.String()
}
