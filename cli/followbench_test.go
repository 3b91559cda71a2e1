package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/testkit/benchgen"
	"github.com/trajscope/trajscope/ui"
)

// BenchmarkFollowReading is what one reading of a followed session costs
// (the file parsed and the run analysed again): the delay between a line
// reaching the file and its action on screen, past fsnotify's and the
// settle time. The real 711-line Claude Code session with sub-agents.
func BenchmarkFollowReading(b *testing.B) {
	path := "../../shared/data/formats/claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl"
	if _, err := os.Stat(path); err != nil {
		b.Skip("no ../shared")
	}
	set := openSet(b, path)
	b.ReportAllocs()
	for b.Loop() {
		if st, _ := set.Reread(1); st == nil {
			b.Fatal("no story")
		}
	}
}

// BenchmarkFollowLatency is the delay from a line reaching a followed
// session file to its reading on screen (read, analysed, the explorer
// updated and drawn), line by line through the real 711-line Claude Code
// session with sub-agents, one core kept busy meanwhile. It reports the
// median and 90th percentile in milliseconds.
func BenchmarkFollowLatency(b *testing.B) {
	src := "../../shared/data/formats/claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl"
	if _, err := os.Stat(src); err != nil {
		b.Skip("no ../shared")
	}
	data, _ := os.ReadFile(src)
	lines := strings.SplitAfter(string(data), "\n")
	var stopped atomic.Bool
	defer stopped.Store(true)
	go func() { // the busy core: it spins on purpose
		for n := 0; !stopped.Load(); n++ {
		}
	}()
	old := followIdle
	followIdle = time.Hour
	defer func() { followIdle = old }()
	var lat []float64
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "s.jsonl")
		os.WriteFile(path, []byte(strings.Join(lines[:60], "")), 0o644)
		set := openSet(b, path)
		st, _, _ := set.Open(1)
		m, err := ui.New(st, ui.Options{Live: true})
		if err != nil {
			b.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		msgs := make(chan tea.Msg, 64)
		stopFollow := followed(set, 1)(func(msg tea.Msg) { msgs <- msg })
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		lastSt := st
		for _, l := range lines[60:] {
			if !strings.HasSuffix(l, "\n") || strings.TrimSpace(l) == "" {
				continue // the file's last line ends without one: never read
			}
			start := time.Now()
			f.WriteString(l)
			select {
			case msg := <-msgs:
				m.Update(msg)
				m.View()
				if lm := msg.(ui.LiveMsg); lm.St != nil {
					lastSt = lm.St
				}
			case <-time.After(time.Minute):
				b.Fatal("no reading")
			}
			lat = append(lat, float64(time.Since(start).Microseconds())/1000)
		}
		f.Close()
		stopFollow()
		// Followed to its end, the run says what view of the file says.
		var last, want bytes.Buffer
		report.WriteRunJSON(&last, lastSt)
		st2, _, _ := openSet(b, path).Open(1)
		report.WriteRunJSON(&want, st2)
		if last.String() != want.String() {
			b.Fatal("the followed run ends unlike view of the finished file")
		}
	}
	sort.Float64s(lat)
	b.ReportMetric(lat[len(lat)/2], "ms-median")
	b.ReportMetric(lat[len(lat)*9/10], "ms-p90")
}

// BenchmarkFollowAppendedLine is the cost of one line appended to a long
// followed session: a generated 10,000-call Claude Code session with 8
// sub-agent transcripts (30 MB), the lead's last lines written one per
// reading. "appended" reads what was appended (view --follow), "whole"
// reads the files again as before; both analyse the run again, with the
// repository's files (a checked-out folder, as watch has) or without
// (the tree rebuilt from what the run displayed).
func BenchmarkFollowAppendedLine(b *testing.B) {
	gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
	lead, subs := gen.ClaudeSession(10000, 8)
	repo := checkedOut(b, gen.Files)
	for _, mode := range []string{"appended", "whole", "appended-repo", "whole-repo"} {
		b.Run(mode, func(b *testing.B) {
			path, lines, held := benchSession(b, lead, subs, 2000)
			set := openSet(b, path)
			if strings.HasSuffix(mode, "-repo") {
				set.Prepare(runset.Options{Sem: model.ContextBench, Checkouts: source.NewCheckouts(source.CheckoutOptions{Repo: repo})})
			}
			read := set.Follow
			if strings.HasPrefix(mode, "whole") {
				read = set.Reread
			}
			if st, _ := read(1); st == nil || (strings.HasSuffix(mode, "-repo") && st.A.Partial != nil) {
				b.Fatal("not read with its repository")
			}
			for set.Behind() { // the start read first: the rest before the timing
				read(1)
			}
			readingsAfter(b, appendLines(b, path, lines, held), read)
		})
	}
}

// checkedOut writes files (repository paths) into a new folder, as a
// checked-out repository, and returns it.
func checkedOut(tb testing.TB, files map[string]string) string {
	tb.Helper()
	repo := tb.TempDir()
	for p, c := range files {
		p = filepath.Join(repo, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
	}
	return repo
}

// benchSession writes a generated session (lead and its sub-agents'
// transcripts) into a new folder, the lead's last lines held back (back, at most half of them).
func benchSession(b *testing.B, lead []byte, subs map[string][]byte, back int) (path string, lines []string, held int) {
	dir := b.TempDir()
	path = filepath.Join(dir, "bench.jsonl")
	if err := benchgen.WriteSubagents(path, subs); err != nil {
		b.Fatal(err)
	}
	lines = strings.SplitAfter(string(lead), "\n")
	held = len(lines) - min(back, len(lines)/2)
	os.WriteFile(path, []byte(strings.Join(lines[:held], "")), 0o644)
	return path, lines, held
}

// appendLines appends, at each call, the next held-back line of the
// session at path.
func appendLines(b *testing.B, path string, lines []string, held int) func() bool {
	return func() bool {
		if held == len(lines) {
			return false
		}
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		f.WriteString(lines[held])
		f.Close()
		held++
		return true
	}
}

// readingsAfter times a reading after each held-back line is appended
// (next; once they are all in, readings of the whole session).
func readingsAfter(b *testing.B, next func() bool, read func(int) (*story.Story, error)) {
	b.ReportAllocs()
	for b.Loop() {
		next()
		if st, _ := read(1); st == nil {
			b.Fatal("no story")
		}
	}
}

// BenchmarkFollowScale is one appended line's reading at 230, 2,000,
// 7,000 and 10,000 calls of a generated Claude Code session: how an
// update's cost grows with the session (issue 46 #6). Shapes:
//   - "" (8 sub-agents, no repository: the tree rebuilt from what the run
//     displayed): their transcripts written ahead, so each lead line lands
//     among their actions (time order), as only the start of a followed
//     session's reading gives them;
//   - "agents/" (the same session) and "agents-repo/" (with its
//     repository's files, a checked-out folder as watch has): every
//     file's lines written in the session's time order, as agents write
//     them, each line landing at the end;
//   - "lead/" and "lead-repo/": a session of one agent.
func BenchmarkFollowScale(b *testing.B) {
	for _, shape := range []followShape{{"", 8, false, false}, {"agents/", 8, false, true}, {"agents-repo/", 8, true, true}, {"lead/", 0, false, false}, {"lead-repo/", 0, true, false}} {
		for _, n := range []int{230, 2000, 7000, 10000} {
			b.Run(fmt.Sprint(shape.name, n), func(b *testing.B) {
				path, _, next, gen := shape.write(b, n)
				set := shape.open(b, path, gen)
				if st, _ := set.Follow(1); st == nil {
					b.Fatal("no story")
				}
				for set.Behind() { // the start read first: the rest before the timing
					set.Follow(1)
				}
				readingsAfter(b, next, set.Follow)
			})
		}
	}
}

// followShape is a generated Claude Code session's shape in the follow
// benchmarks: its sub-agents, whether its repository is given, and
// whether every file's lines are written in time order (team) or the
// sub-agents' transcripts ahead of the lead's last lines.
type followShape struct {
	name       string
	subs       int
	repo, team bool
}

// write writes a session of n calls in this shape, its last 200 lines
// held back, and returns its file, the sub-agents' transcripts, what
// appends the next line, and the generator (whose files are the
// repository).
func (sh followShape) write(b *testing.B, n int) (path string, subs map[string][]byte, next func() bool, gen *benchgen.Task) {
	gen = benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
	lead, subs := gen.ClaudeSession(n, sh.subs)
	if sh.team {
		path, next = benchTeam(b, lead, subs, 200)
		return path, subs, next, gen
	}
	path, lines, held := benchSession(b, lead, subs, 200)
	return path, subs, appendLines(b, path, lines, held), gen
}

// open opens the session at path to be followed, with its repository's
// files (a checked-out folder, as watch has) when the shape has it.
func (sh followShape) open(b *testing.B, path string, gen *benchgen.Task) *runset.Set {
	set := openSet(b, path)
	if sh.repo {
		set.Prepare(runset.Options{Sem: model.ContextBench, Checkouts: source.NewCheckouts(source.CheckoutOptions{Repo: checkedOut(b, gen.Files)})})
	}
	return set
}

// benchTeam writes a generated session, lead and sub-agents, but for its
// last back lines in time order (records are numbered in the order
// written: "uuid":"u0000123"); next appends the next of them to its file.
func benchTeam(b *testing.B, lead []byte, subs map[string][]byte, back int) (path string, next func() bool) {
	dir := b.TempDir()
	path = filepath.Join(dir, "bench.jsonl")
	type held struct {
		file, line string
		seq        int
	}
	var all []held
	add := func(file string, data []byte) {
		os.MkdirAll(filepath.Dir(file), 0o755)
		for _, l := range strings.SplitAfter(string(data), "\n") {
			if l == "" {
				continue
			}
			seq := -1
			if i := strings.Index(l, `"uuid":"u`); i >= 0 {
				fmt.Sscanf(l[i+len(`"uuid":"u`):], "%d", &seq)
			}
			all = append(all, held{file, l, seq})
		}
	}
	add(path, lead)
	for id, data := range subs {
		add(benchgen.SubagentPath(path, id), data)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	k := len(all) - min(back, len(all)/2)
	appendTo := func(h held) {
		f, err := os.OpenFile(h.file, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			b.Fatal(err)
		}
		f.WriteString(h.line)
		f.Close()
	}
	for _, h := range all[:k] {
		appendTo(h)
	}
	return path, func() bool {
		if k == len(all) {
			return false
		}
		appendTo(all[k])
		k++
		return true
	}
}

// followingExplorer reads the followed session of set to its end and
// opens the explorer on it at 120x40, at the newest step (as a follower
// is), its first frame drawn.
func followingExplorer(b *testing.B, set *runset.Set) *ui.Model {
	st, _ := set.Follow(1)
	for set.Behind() {
		st, _ = set.Follow(1)
	}
	m, err := ui.New(st, ui.Options{Live: true})
	if err != nil {
		b.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	m.View()
	return m
}

// BenchmarkFollowScreen is what the explorer does with a reading of a
// followed session at 230 and 7,000 calls (one agent, no repository): the
// reading applied (ui.LiveMsg) and the screen drawn, 120x40, the reading
// itself (BenchmarkFollowScale) taken before the timing. Together they are
// an update's cost past fsnotify and the settle time.
func BenchmarkFollowScreen(b *testing.B) {
	for _, n := range []int{230, 7000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
			lead, subs := gen.ClaudeSession(n, 0)
			path, lines, held := benchSession(b, lead, subs, 200)
			next := appendLines(b, path, lines, held)
			set := openSet(b, path)
			m := followingExplorer(b, set)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				next()
				st, _ := set.Follow(1)
				b.StartTimer()
				m.Update(ui.LiveMsg{St: st})
				m.View()
			}
		})
	}
}

// BenchmarkFollowLatencyScale is the issue's own measure of an update: the
// delay from a line reaching a followed session file to the explorer
// drawing it (fsnotify, the settle time, the reading, the explorer's
// update and its frame at 120x40), at 230, 2,000, 7,000 and 10,000 calls
// of a generated Claude Code session: one agent with its repository
// (watch's case) and without (view --follow's), and a lead with 8
// sub-agents whose transcripts are written in time order, as agents write
// them. It reports the median and 90th percentile in milliseconds, when
// the reading came and the explorer's part (medians of their own), and
// the collections per update; at most 200 lines are held back, so
// -benchtime ≤ 200x.
func BenchmarkFollowLatencyScale(b *testing.B) {
	old := followIdle
	followIdle = time.Hour
	defer func() { followIdle = old }()
	for _, shape := range []followShape{{"lead/", 0, false, false}, {"lead-repo/", 0, true, false}, {"agents/", 8, false, true}} {
		for _, n := range []int{230, 2000, 7000, 10000} {
			b.Run(fmt.Sprint(shape.name, n), func(b *testing.B) {
				path, subs, next, gen := shape.write(b, n)
				var ms runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms)
				base := int64(ms.HeapAlloc) // the benchmark's own
				set := shape.open(b, path, gen)
				m := followingExplorer(b, set)
				// The memory limit a process following the session sets
				// (limitMemoryTo), over what this one holds besides: the
				// generated session and its lines.
				b.Setenv("GOMEMLIMIT", "off") // limitMemoryTo leaves it to this
				size := regularSize(path)     // the session's files, as runset.Update.Size
				for id := range subs {
					size += regularSize(benchgen.SubagentPath(path, id))
				}
				before := debug.SetMemoryLimit(base + 3*size + 64<<20)
				defer debug.SetMemoryLimit(before)
				msgs := make(chan tea.Msg, 64)
				stop := followed(set, 1)(func(msg tea.Msg) { msgs <- msg })
				defer stop()
				var lat, got, ui []float64 // the whole delay; until the reading came; the explorer's part
				var ms0, ms1 runtime.MemStats
				runtime.ReadMemStats(&ms0)
				for b.Loop() {
					start := time.Now()
					if !next() {
						b.Fatal("no line left to append: -benchtime at most 200x")
					}
					select {
					case msg := <-msgs:
						got = append(got, float64(time.Since(start).Microseconds())/1000)
						m.Update(msg)
						m.View()
					case <-time.After(time.Minute):
						b.Fatal("no reading")
					}
					lat = append(lat, float64(time.Since(start).Microseconds())/1000)
					ui = append(ui, lat[len(lat)-1]-got[len(got)-1])
				}
				runtime.ReadMemStats(&ms1)
				b.ReportMetric(float64(ms1.NumGC-ms0.NumGC)/float64(len(lat)), "gc/update")
				sort.Float64s(lat)
				sort.Float64s(got)
				b.ReportMetric(lat[len(lat)/2], "ms-median")
				b.ReportMetric(lat[len(lat)*9/10], "ms-p90")
				b.ReportMetric(got[len(got)/2], "ms-read-median")
				sort.Float64s(ui)
				b.ReportMetric(ui[len(ui)/2], "ms-screen-median")
			})
		}
	}
}
