package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/scoring"
)

var (
	reSWEID = regexp.MustCompile(`^([A-Za-z0-9_.-]+)__([A-Za-z0-9_.-]+)-[0-9]+$`)
	reProID = regexp.MustCompile(`^instance_([A-Za-z0-9_.-]+?)__([A-Za-z0-9_.-]+)-[0-9a-f]{40}(-v[0-9a-f]+)?$`)
)

// realSet writes DIR/preds.jsonl: unified prediction records over the
// repositories present in the cache. Real runs are copied as they are; for
// every other gold row on a cached repository a run is derived the way an
// agent reads: a search naming files, views around each gold span (some
// through the container's /testbed prefix), views of neighbouring files in
// the same directories, a path that does not exist, a re-read, and a final
// context near the gold.
func realSet(args []string) error {
	fl := flag.NewFlagSet("realset", flag.ExitOnError)
	goldPath := fl.String("gold", "", "gold rows (parquet)")
	predPath := fl.String("pred", "", "real unified predictions (JSONL)")
	cache := fl.String("cache", "", "repository cache, upstream layout")
	out := fl.String("out", "", "output directory")
	extra := fl.Int("repeat", 4, "second runs of this many instances (on the largest repositories)")
	_ = fl.Parse(args)
	if *goldPath == "" || *cache == "" || *out == "" {
		return fmt.Errorf("realset needs -gold, -cache and -out")
	}
	set, err := gold.Load(*goldPath)
	if err != nil {
		return err
	}
	real := map[string][]byte{}
	if *predPath != "" {
		if real, err = realRuns(*predPath); err != nil {
			return err
		}
	}
	var lines [][]byte
	var derived []*model.Gold
	for _, g := range set.All() {
		owner, repo, ok := ownerRepo(g.ID)
		if !ok {
			continue
		}
		dir := filepath.Join(*cache, "github.com__"+owner+"__"+repo)
		if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
			continue
		}
		if r, ok := real[g.ID]; ok {
			lines = append(lines, r)
			continue
		}
		rec, err := derive(g, owner, repo, dir, 0)
		if err != nil {
			return fmt.Errorf("%s: %w", g.ID, err)
		}
		lines = append(lines, rec)
		derived = append(derived, g)
	}
	// A second run of a few instances, as when two agents are compared:
	// the ones with the most gold files, on the largest repositories.
	slices.SortStableFunc(derived, func(a, b *model.Gold) int { return len(goldFiles(b)) - len(goldFiles(a)) })
	for _, g := range derived[:min(*extra, len(derived))] {
		owner, repo, _ := ownerRepo(g.ID)
		rec, err := derive(g, owner, repo, filepath.Join(*cache, "github.com__"+owner+"__"+repo), 1)
		if err != nil {
			return fmt.Errorf("%s: %w", g.ID, err)
		}
		lines = append(lines, rec)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	p := filepath.Join(*out, "preds.jsonl")
	if err := os.WriteFile(p, append(bytes.Join(lines, []byte("\n")), '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %d runs\n", p, len(lines))
	return nil
}

// realRuns indexes the lines of a unified predictions file by instance id.
func realRuns(p string) (map[string][]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			ID string `json:"instance_id"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.ID != "" {
			out[rec.ID] = bytes.Clone(sc.Bytes())
		}
	}
	return out, sc.Err()
}

// ownerRepo reads the repository from a SWE-bench style id or a SWE-bench
// Pro id (instance_<owner>__<repo>-<sha>-v<sha>).
func ownerRepo(id string) (owner, repo string, ok bool) {
	if m := reProID.FindStringSubmatch(id); m != nil {
		return m[1], m[2], true
	}
	if m := reSWEID.FindStringSubmatch(id); m != nil {
		return m[1], m[2], true
	}
	return "", "", false
}

// goldFiles lists the repository paths of the gold files, in gold order.
func goldFiles(g *model.Gold) []string {
	var files []string
	for _, s := range g.All() {
		if f := scoring.NormalizeGoldPath(s.File, model.ContextBench); !slices.Contains(files, f) {
			files = append(files, f)
		}
	}
	return files
}

type span struct {
	Type  string `json:"type"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

type step struct {
	Files []string          `json:"files"`
	Spans map[string][]span `json:"spans"`
}

// derive builds one run for a gold row; variant changes which neighbours
// are read and where.
func derive(g *model.Gold, owner, repo, dir string, variant int) ([]byte, error) {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s/%d", g.ID, variant)
	seed := h.Sum64()
	pick := func(n int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(n))
	}

	files := goldFiles(g)
	var others []string
	for _, f := range files {
		sib, err := siblings(dir, g.Commit, f)
		if err != nil {
			return nil, err
		}
		for k := 0; k < 2 && len(sib) > 0; k++ {
			i := pick(len(sib))
			if s := sib[i]; !slices.Contains(files, s) && !slices.Contains(others, s) {
				others = append(others, s)
			}
			sib = slices.Delete(sib, i, i+1)
		}
		if len(others) >= 6 {
			break
		}
	}
	// Agents name files relative to the repository or by their path in
	// the container; suffix resolution maps both.
	prefix := func(f string) string {
		if pick(2) == 0 {
			return "/testbed/" + scoring.NormalizeGoldPath(f, model.ContextBench)
		}
		return f
	}
	view := func(f string, a, b int) step {
		p := prefix(f)
		return step{Files: []string{p}, Spans: map[string][]span{p: {{"line", max(1, a), max(1, b)}}}}
	}
	var steps []step
	steps = append(steps, step{Files: append(slices.Clone(files[:min(2, len(files))]), others[:min(2, len(others))]...), Spans: map[string][]span{}})
	for _, s := range g.All() {
		steps = append(steps, view(s.File, s.Start-40+pick(20), s.End+20+pick(60)))
	}
	for _, o := range others {
		a := 1 + pick(200)
		steps = append(steps, view(o, a, a+80))
	}
	missing := path.Join(path.Dir(files[0]), fmt.Sprintf("missing_%d%s", variant, path.Ext(files[0])))
	steps = append(steps, view(missing, 1, 50))
	first := g.All()[0]
	steps = append(steps, view(first.File, first.Start-5, first.End+10))

	final := map[string][]span{}
	var finalFiles []string
	for _, s := range g.All() {
		f := scoring.NormalizeGoldPath(s.File, model.ContextBench)
		if len(finalFiles) < 3 && !slices.Contains(finalFiles, f) {
			finalFiles = append(finalFiles, f)
		}
		if slices.Contains(finalFiles, f) {
			final[f] = append(final[f], span{"line", max(1, s.Start-10), s.End + 15})
		}
	}
	if len(others) > 0 {
		finalFiles = append(finalFiles, others[0])
		final[others[0]] = []span{{"line", 1, 40}}
	}
	rec := map[string]any{
		"instance_id": g.ID,
		"repo_url":    "https://github.com/" + owner + "/" + repo,
		"commit":      g.Commit,
		"traj_data": map[string]any{
			"pred_steps": steps,
			"pred_files": finalFiles,
			"pred_spans": final,
		},
		"model_patch": fmt.Sprintf("diff --git a/%[1]s b/%[1]s\n--- a/%[1]s\n+++ b/%[1]s\n@@ -%[2]d,2 +%[2]d,2 @@\n-x\n+y\n z\n", files[0], first.Start+1),
	}
	return json.Marshal(rec)
}

// siblings lists the files next to f at commit, with f's extension first.
func siblings(dir, commit, f string) ([]string, error) {
	d := path.Dir(f)
	arg := d + "/"
	if d == "." {
		arg = "."
	}
	cmd := exec.Command("git", "-C", dir, "ls-tree", commit, arg)
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-tree %s %s: %w", commit, arg, err)
	}
	var same, rest []string
	for _, line := range strings.Split(string(b), "\n") {
		// "<mode> <type> <hash>\t<name>": regular files only.
		meta, name, ok := strings.Cut(line, "\t")
		if !ok || !strings.HasPrefix(meta, "100644 blob") || name == f {
			continue
		}
		if path.Ext(name) == path.Ext(f) {
			same = append(same, name)
		} else {
			rest = append(rest, name)
		}
	}
	return append(same, rest...), nil
}
