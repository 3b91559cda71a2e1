// Package benchgen generates deterministic, realistic inputs for the
// benchmarks: a Python repository, a mini-swe-agent v1 trajectory (the
// ContextBench-instrumented runner's .traj.json) that explores it, and gold
// context. Only benchmarks and cmd/benchgen use it; the binary does not.
package benchgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// Task is one generated instance.
type Task struct {
	ID string
	// Files is the repository: repo-relative path to content.
	Files map[string]string
	// GoldFiles are the files holding gold spans, sorted.
	GoldFiles []string
	Gold      *model.Gold
	// Traj is the .traj.json; its file name is ID + ".traj.json".
	Traj []byte
}

// Options sizes a task.
type Options struct {
	Actions   int // agent actions (assistant turns with a command)
	GoldFiles int // files with gold spans
	Lines     int // lines per repository file
	// OtherFiles are repository files without gold the agent also visits.
	OtherFiles int
}

// Python returns about n lines of plausible Python (classes with methods,
// functions, comments), different for each seed.
func Python(n, seed int) string {
	var b strings.Builder
	b.WriteString("import os\nimport sys\n\n")
	lines := 3
	for i := 0; lines < n; i++ {
		fmt.Fprintf(&b, "\nclass Model%d_%d(Base):\n    \"\"\"Docstring %d.\"\"\"\n\n", seed, i, i)
		lines += 4
		for m := 0; m < 3 && lines < n; m++ {
			fmt.Fprintf(&b, "    def method_%d(self, x, y=%d):\n", m, m)
			b.WriteString("        # compute something\n")
			fmt.Fprintf(&b, "        total = [v * %d for v in range(x) if v %% 2]\n", m+seed)
			b.WriteString("        if total:\n            return sum(total) + y\n")
			b.WriteString("        return {\"x\": x, \"y\": y}\n\n")
			lines += 7
		}
		fmt.Fprintf(&b, "\ndef helper_%d(a, *args, **kw):\n", i)
		b.WriteString("    def inner(z):\n        return z + 1\n")
		b.WriteString("    return inner(a) if a else None\n")
		lines += 5
	}
	return b.String()
}

// The message shapes of a mini-swe-agent v1 trajectory, in its key order.
type traj struct {
	Info             info      `json:"info"`
	Messages         []message `json:"messages"`
	TrajectoryFormat string    `json:"trajectory_format"`
	InstanceID       string    `json:"instance_id"`
}

type info struct {
	ExitStatus  string         `json:"exit_status"`
	Submission  string         `json:"submission"`
	ModelStats  map[string]any `json:"model_stats"`
	MiniVersion string         `json:"mini_version"`
	Config      map[string]any `json:"config"`
}

type message struct {
	Role      string  `json:"role"`
	Content   string  `json:"content"`
	Timestamp float64 `json:"timestamp"`
	Extra     *extra  `json:"extra,omitempty"`
}

type extra struct {
	Response response `json:"response"`
}

type response struct {
	ID      string   `json:"id"`
	Created int64    `json:"created"`
	Model   string   `json:"model"`
	Object  string   `json:"object"`
	Choices []choice `json:"choices"`
	Usage   usage    `json:"usage"`
}

type choice struct {
	FinishReason string         `json:"finish_reason"`
	Index        int            `json:"index"`
	Message      map[string]any `json:"message"`
}

type usage struct {
	CompletionTokens int `json:"completion_tokens"`
	PromptTokens     int `json:"prompt_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

const modelName = "Qwen/Qwen2.5-Coder-32B-Instruct"

// New generates a task. The trajectory mixes what real runs do: ranged
// views echoed as <explore_context> (most actions), grep -n, head, ls,
// test runs and sed -i edits; it ends with <PATCH_CONTEXT> and a patch.
func New(o Options) *Task {
	o.Lines = max(o.Lines, 50)
	t := &Task{ID: fmt.Sprintf("bench__bench-%d-%d", o.Actions, o.GoldFiles), Files: map[string]string{}}
	var all []string
	for i := 0; i < o.GoldFiles+o.OtherFiles; i++ {
		p := fmt.Sprintf("pkg/sub%d/mod%d.py", i%7, i)
		t.Files[p] = Python(o.Lines, i)
		all = append(all, p)
		if i < o.GoldFiles {
			t.GoldFiles = append(t.GoldFiles, p)
		}
	}
	sort.Strings(t.GoldFiles)
	lineCount := func(p string) int { return strings.Count(t.Files[p], "\n") }

	t.Gold = &model.Gold{ID: t.ID, OriginalInstID: t.ID, Commit: "HEAD", Language: "python"}
	rng := rand.New(rand.NewPCG(uint64(o.Actions), uint64(o.GoldFiles)))
	for _, p := range t.GoldFiles {
		n := lineCount(p)
		for k := 0; k < 2; k++ {
			s := 1 + rng.IntN(n-60)
			t.Gold.Init = append(t.Gold.Init, model.GoldSpan{File: p, Start: s, End: s + 10 + rng.IntN(50)})
		}
	}
	first := t.Gold.Init[0]
	t.Gold.Patch = fmt.Sprintf("diff --git a/%[1]s b/%[1]s\n--- a/%[1]s\n+++ b/%[1]s\n@@ -%[2]d,2 +%[2]d,2 @@\n-x\n+y\n z\n", first.File, first.Start+2)

	tr := traj{
		Info: info{
			ExitStatus: "Submitted", Submission: t.Gold.Patch,
			ModelStats:  map[string]any{"instance_cost": 0.0, "api_calls": o.Actions + 1},
			MiniVersion: "1.17.3",
			Config: map[string]any{
				"model":       map[string]any{"model_name": modelName},
				"environment": map[string]any{"image": "docker.io/swebench/sweb.eval.x86_64.bench_1776_bench-1:latest"},
			},
		},
		TrajectoryFormat: "mini-swe-agent-1",
		InstanceID:       t.ID,
	}
	ts := 1774671281.5
	add := func(role, content string, withExtra bool) {
		ts += 1.25
		m := message{Role: role, Content: content, Timestamp: ts}
		if withExtra {
			in := 1500 + 40*len(tr.Messages)
			m.Extra = &extra{Response: response{
				ID: fmt.Sprintf("chatcmpl-%016x", rng.Uint64()), Created: int64(ts), Model: modelName, Object: "chat.completion",
				Choices: []choice{{FinishReason: "stop", Message: map[string]any{"content": content, "role": "assistant", "tool_calls": nil}}},
				Usage:   usage{CompletionTokens: 90, PromptTokens: in, TotalTokens: in + 90},
			}}
		}
		tr.Messages = append(tr.Messages, m)
	}
	add("system", "You are a helpful assistant that can interact multiple times with a computer shell to solve programming tasks.\nYour response must contain exactly ONE bash code block with ONE command (or commands connected with && or ||).", false)
	add("user", "<pr_description>\nConsider the following PR description:\nhelper functions return the wrong total for odd inputs\n</pr_description>\n\n<instructions>\n# Task Instructions\nUse <EXPLORE_CONTEXT> to declare what you read.\n</instructions>", false)

	numbered := func(p string, a, b int) string {
		lines := strings.Split(t.Files[p], "\n")
		var sb strings.Builder
		for i := a; i <= b && i <= len(lines); i++ {
			fmt.Fprintf(&sb, "%6d\t%s\n", i, lines[i-1])
		}
		return sb.String()
	}
	obs := func(out string) string {
		return "<returncode>0</returncode>\n<output>\n" + out + "</output>"
	}
	for i := 0; i < o.Actions; i++ {
		p := all[rng.IntN(len(all))]
		n := lineCount(p)
		switch r := rng.IntN(100); {
		case r < 60: // ranged view, declared and echoed
			a := 1 + rng.IntN(n-1)
			b := min(n, a+10+rng.IntN(70))
			decl := fmt.Sprintf("File: /testbed/%s\nLines: %d-%d", p, a, b)
			add("assistant", fmt.Sprintf("THOUGHT: Let me look at lines %d-%d of %s to see how the totals are computed.\n\n<EXPLORE_CONTEXT>\n%s\n</EXPLORE_CONTEXT>\n\n```bash\nnl -ba /testbed/%s | sed -n '%d,%dp'\n```", a, b, p, decl, p, a, b), true)
			add("user", "<explore_context>\n"+decl+"</explore_context>\n"+obs(numbered(p, a, b)), false)
		case r < 75: // grep -n in one file
			k := rng.IntN(n / 30)
			var sb strings.Builder
			for j, line := range strings.Split(t.Files[p], "\n") {
				if strings.HasPrefix(line, fmt.Sprintf("def helper_%d(", k)) || strings.Contains(line, fmt.Sprintf("_%d(Base)", k)) {
					fmt.Fprintf(&sb, "%d:%s\n", j+1, line)
				}
			}
			add("assistant", fmt.Sprintf("THOUGHT: I'll find where helper_%d is defined.\n\n```bash\ngrep -n \"helper_%d\\|_%d(Base)\" /testbed/%s\n```", k, k, k, p), true)
			add("user", obs(sb.String()), false)
		case r < 83: // head
			h := 20 + rng.IntN(30)
			add("assistant", fmt.Sprintf("THOUGHT: The imports at the top of %s matter here.\n\n```bash\nhead -n %d /testbed/%s\n```", p, h, p), true)
			lines := strings.SplitAfter(t.Files[p], "\n")
			add("user", obs(strings.Join(lines[:min(h, len(lines))], "")), false)
		case r < 90: // listing
			dir := p[:strings.LastIndexByte(p, '/')]
			add("assistant", fmt.Sprintf("THOUGHT: What else is in %s?\n\n```bash\nls -la /testbed/%s\n```", dir, dir), true)
			add("user", obs("total 48\ndrwxr-xr-x 2 root root 4096 Jan  1 00:00 .\ndrwxr-xr-x 9 root root 4096 Jan  1 00:00 ..\n-rw-r--r-- 1 root root 61234 Jan  1 00:00 "+p[len(dir)+1:]+"\n"), false)
		case r < 96: // run the tests
			add("assistant", "THOUGHT: Run the tests to check the behaviour.\n\n```bash\ncd /testbed && python -m pytest tests/test_helpers.py -q 2>&1 | tail -n 15\n```", true)
			add("user", obs("..F.....\n=================================== FAILURES ===================================\n___________________________ test_odd_total ___________________________\nE       assert 3 == 4\n1 failed, 7 passed in 0.12s\n"), false)
		default: // edit
			a := 1 + rng.IntN(n-1)
			add("assistant", fmt.Sprintf("THOUGHT: Fix the off-by-one.\n\n```bash\nsed -i '%ds/v %% 2/v %% 2 == 1/' /testbed/%s\n```", a, p), true)
			add("user", obs(""), false)
		}
	}
	var ctx strings.Builder
	for _, g := range t.Gold.Init[:min(3, len(t.Gold.Init))] {
		fmt.Fprintf(&ctx, "File: /testbed/%s\nLines: %d-%d\n\n", g.File, g.Start-5, g.End+5)
	}
	add("user", "<context_request>\nProvide the code context you used, as <PATCH_CONTEXT>.\n</context_request>", false)
	add("assistant", "THOUGHT: Providing code context used for patch generation.\n\n<PATCH_CONTEXT>\n"+ctx.String()+"</PATCH_CONTEXT>\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached\n```", true)
	add("user", t.Gold.Patch, false)

	var err error
	if t.Traj, err = json.MarshalIndent(tr, "", " "); err != nil {
		panic(err) // only plain data: cannot fail
	}
	return t
}

// GoldJSON is the task's gold as a ContextBench JSON record (gold_ctx form).
func (t *Task) GoldJSON() []byte {
	type span struct {
		File  string `json:"file"`
		Start int    `json:"start_line"`
		End   int    `json:"end_line"`
	}
	rec := struct {
		InstID         string `json:"inst_id"`
		OriginalInstID string `json:"original_inst_id"`
		Repo           string `json:"repo"`
		Commit         string `json:"commit"`
		Language       string `json:"language"`
		GoldCtx        []span `json:"gold_ctx"`
		Patch          string `json:"patch"`
	}{t.ID, t.ID, "bench/bench", t.Gold.Commit, "python", nil, t.Gold.Patch}
	for _, g := range t.Gold.Init {
		rec.GoldCtx = append(rec.GoldCtx, span{g.File, g.Start, g.End})
	}
	b, err := json.MarshalIndent([]any{rec}, "", " ")
	if err != nil {
		panic(err)
	}
	return b
}
