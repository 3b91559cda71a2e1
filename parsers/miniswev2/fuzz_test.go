package miniswev2

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzMiniSWEv2 checks that no input panics and that loaded runs keep the
// loader's invariants.
func FuzzMiniSWEv2(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.json")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"messages":[{"role":"assistant","tool_calls":[{"id":"a","function":{"arguments":"{\"command\":\"sed -n '0,-1p' x\"}"}}]},{"role":"tool","tool_call_id":"a","content":"<output_head>\n</output_head>"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		run, err := parse("fuzz.traj.json", data)
		if err != nil {
			return
		}
		if err := predtest.CheckRun(&run); err != nil {
			t.Fatal(err)
		}
	})
}
