package cli

import (
	"testing"

	"github.com/trajscope/trajscope/internal/lazyre"
)

// Every package's regular expressions compile on first use (lazyre); this
// compiles them all, so one that would panic fails here rather than on the
// first run that needs it. cli reaches every package that has them.
func TestEveryPatternCompiles(t *testing.T) {
	if n := lazyre.CompileAll(); n < 130 {
		t.Errorf("%d patterns registered; every package together has 138", n)
	}
}
