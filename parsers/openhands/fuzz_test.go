package openhands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

func checkRun(t *testing.T, run model.Run) {
	predtest.CheckActions(t, run)
	for _, st := range run.Prediction.Steps {
		if len(st.Files) == 0 {
			t.Fatalf("step without files: %+v", st)
		}
	}
}

func FuzzOpenHands(f *testing.F) {
	for _, n := range []string{"output.jsonl", "c.jsonl", "bad_output.jsonl", "pairs_output.jsonl"} {
		if b, err := os.ReadFile("testdata/" + n); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"instance_id": "a", "history": null}`))
	f.Add([]byte(`{"history": [{"id": 1, "action": "read", "args": {"path": "/a.py", "view_range": [1, -1]}}, {"cause": 1, "observation": "error"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		runs, err := loadJSONL("fuzz.jsonl", data)
		if err != nil && !strings.Contains(err.Error(), "fuzz.jsonl") {
			t.Fatalf("error does not name the file: %v", err)
		}
		for _, r := range runs {
			checkRun(t, r)
		}
		Sniff("fuzz.jsonl", data)
	})
}

func FuzzRunCommand(f *testing.F) {
	for _, s := range []string{
		"sed -n '10,20p' /workspace/x/pkg/mod.py && grep -n foo pkg/util.py",
		"nl -ba /testbed/pkg/mod.py | sed -n '4,5p'", "head -n 30 pkg/mod.py | tail -n 5",
		"cat -n /workspace/a.py", "grep -rn 'alpha' pkg/ --include=*.py",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		defer testkit.FuzzBudget(t)()
		for _, v := range []Variant{History, Completions} {
			st, ok, err := RunCommandStep(cmd, v)
			if err == nil && ok && len(st.Files) == 0 {
				t.Fatalf("step without files for %q", cmd)
			}
		}
	})
}

// FuzzCompletions: one llm_completions log never panics; a loaded run keeps
// the loader's invariants and an error names the log.
func FuzzCompletions(f *testing.F) {
	for _, p := range []string{
		"testdata/llm_completions/owner__repo-5/anthropic__claude-1737000100.000.json",
		"testdata/llm_completions/owner__repo-6/log-001.json",
		"testdata/badcompl/owner__repo-8/a.json",
	} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"messages": [{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "str_replace_editor", "arguments": "{\"command\": \"view\", \"path\": \"/a.py\", \"view_range\": [9, -1]}"}}]}, {"role": "tool", "tool_call_id": "c", "content": "patch\n` + "```diff\\nx\\n```" + `"}]}`))
	// One instance directory per fuzz process: the loader reads directories.
	dir := filepath.Join(f.TempDir(), "owner__repo-1")
	if err := os.Mkdir(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	log := filepath.Join(dir, "log.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		if err := os.WriteFile(log, data, 0o644); err != nil {
			t.Fatal(err)
		}
		run, err := loadCompletionsInstance(dir)
		if err != nil {
			if !strings.HasPrefix(err.Error(), log) {
				t.Fatalf("error does not name the log: %v", err)
			}
			return
		}
		checkRun(t, run)
		guessPatch(log)
	})
}
