package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/trajscope/trajscope/internal/atomicfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/ir"
	"github.com/trajscope/trajscope/story"
)

// EventsSuffix names a run's retrieval-events document: TASK + it.
const EventsSuffix = ".retrieval_events.json"

var unsafeTask = lazyre.New(`[^A-Za-z0-9._-]+`)

// runRetrievalEvents writes one retrieval-events document per run into
// o.out, read through the one pipeline (runset) with the gold and
// repositories given: a run that cannot be read is said and the others
// are still written.
func runRetrievalEvents(env *Env, o *convertOptions, paths []string) error {
	if o.out == "" || o.out == "-" {
		return usagef("--to retrieval-events writes a document per run: give -o DIR")
	}
	if o.lens != "contextbench" {
		return usagef("--to retrieval-events reads what each action did (the observed lens) whatever --lens says; leave --lens out")
	}
	rf := runFlags{gold: o.gold, repo: o.repo, cache: o.cache, noClone: o.noClone, redact: o.redact, semantics: "contextbench", lens: "contextbench"}
	rf.parseTimeout = scoring.DefaultParseTimeout
	_, sem, err := rf.check()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	set, err := rf.open(paths)
	if err != nil {
		return err
	}
	defer func() { rf.facts.close() }()
	defer set.Close()
	defer sayRedaction(env, set)
	set.LoadAll()
	problems, err := rf.prepare(env, sem, set, false)
	if err != nil {
		return err
	}
	sayProblems(env, problems)
	benchmark := "unknown"
	if o.gold != "" {
		benchmark = strings.TrimSuffix(filepath.Base(o.gold), filepath.Ext(o.gold))
	}
	used := map[string]int{}
	written := 0
	now := time.Now()
	for pos := 1; pos <= set.Len(); pos++ {
		st, _, err := set.Open(pos)
		var ge *runset.GoldError
		if err != nil && (st == nil || !errors.As(err, &ge)) {
			fmt.Fprintf(env.Stderr, "trajscope: warning: run %d: %s\n", pos, safe(err.Error()))
			if st == nil {
				continue
			}
		}
		run := st.A.Run
		doc := ir.Events(st.A, ir.Context{RunID: runID(run.Path), Benchmark: benchmark, Now: now,
			AgentLabel: func(i int) string { return story.Label(run, int(run.Actions[i].Agent)) }})
		name := strings.Trim(unsafeTask().ReplaceAllString(st.Task(), "_"), "._")
		if name == "" {
			name = fmt.Sprintf("run-%d", pos)
		}
		if used[name]++; used[name] > 1 {
			name = fmt.Sprintf("%s-%d", name, used[name]) // two runs of one task
		}
		b, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		path := filepath.Join(o.out, name+EventsSuffix)
		if err := atomicfile.WriteFile(path, append(termsafe.JSON(b), '\n')); err != nil {
			return err
		}
		written++
	}
	fmt.Fprintf(env.Stderr, "%d retrieval-events documents written to %s\n", written, safe(o.out))
	if written == 0 {
		return fmt.Errorf("nothing converted")
	}
	return nil
}

// runID names a run in a document: its file's name without extension.
func runID(path string) string {
	b := filepath.Base(path)
	for _, ext := range []string{".jsonl", ".json", ".traj"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}
