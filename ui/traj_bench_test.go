package ui

import (
	"fmt"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
	"github.com/trajscope/trajscope/testkit/benchgen"
)

// benchAnalysis parses and analyses a generated mini-swe-agent v1 run of n
// actions over 5 gold files (and 3 others) of 2,000 lines in git.
func benchAnalysis(b *testing.B, n int) *scoring.Analysis {
	b.Helper()
	t := benchgen.New(benchgen.Options{Actions: n, GoldFiles: 5, Lines: 2000, OtherFiles: 3})
	run, err := miniswe.Parse(t.ID+".traj.json", t.Traj)
	if err != nil {
		b.Fatal(err)
	}
	dir, commit := testkit.GitRepo(b, t.Files)
	tree, err := source.Open(dir, commit, nil)
	if err != nil {
		b.Fatal(err)
	}
	return scoring.Analyze(run, t.Gold, scoring.NewFileCache(tree), model.ContextBench)
}

var benchActions = []int{100, 1000, 10000}

// BenchmarkExplorerOpen is opening the explorer on an analysed run: the
// per-file and per-action tables, the diagnosis, and the first frame at
// 200x60.
func BenchmarkExplorerOpen(b *testing.B) {
	for _, n := range benchActions {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			a := benchAnalysis(b, n)
			b.ReportAllocs()
			for b.Loop() {
				m := newModel(b, a, Options{}, 200, 60)
				_ = m.View()
			}
		})
	}
}

// BenchmarkExplorerStep is one step forward (key "l") and the frame it
// draws; the time per step should not depend on the run's length. The
// first 300 steps are taken untimed, so every file has been shown once: the
// first view of a file highlights all of it (BenchmarkExplorerOpen pays
// that for the first file), and a short benchmark would otherwise average
// in a handful of those.
func BenchmarkExplorerStep(b *testing.B) {
	for _, n := range benchActions {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			m := newModel(b, benchAnalysis(b, n), Options{}, 200, 60)
			m.View()
			next := press("l")
			for range min(n-1, 300) {
				m.Update(next)
				_ = m.View()
			}
			b.ReportAllocs()
			for b.Loop() {
				if m.ctx.Cur == m.ctx.Data.N-1 {
					m.setCur(0)
				}
				m.Update(next)
				_ = m.View()
			}
		})
	}
}
