package parsers

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/archive"
	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/codex"
	"github.com/trajscope/trajscope/parsers/unified"
)

// ConvertOptions say what Convert writes.
type ConvertOptions struct {
	// Recursive descends into subdirectories.
	Recursive bool
	// Lens model.LensObserved writes each run's observed prediction: its
	// steps are what its actions displayed (see observed.Prediction), the
	// rest of the record is the one the default lens writes.
	Lens model.Lens
	// Timelines, when set, reads each run of a file with a timeline
	// against its repository (runset.Observer): its observed prediction,
	// and the actions that made its records' steps (written as
	// step_actions, so a record read back numbers its actions as the run
	// did). nil: the observed lens from the run alone, no step_actions.
	Timelines Timelines
}

// Timelines reads runs for Convert.
type Timelines interface {
	// Observed is run's observed prediction.
	Observed(run *model.Run) model.Prediction
	// StepActions numbers, for each step of pred (run's record), the
	// action of run that made it; nil when it cannot tell.
	StepActions(run *model.Run, pred model.Prediction) []int
}

// Convert writes unified prediction records for every run in paths, in
// input order, with unified.Write. A path may be a file of any supported
// format or a directory: its files are converted in name order, and with
// o.Recursive its subdirectories too (a format's directory, such as an
// OpenHands llm_completions directory, is one unit). In a directory, files
// no format claims are skipped; a file named on the command line must be
// readable. Under the default lens the records are those LoadPredictions
// gives, so converting then scoring equals scoring the trajectory files
// with the reference evaluator.
//
// n counts the records written; errs names each file or record that could
// not be converted, and the others are still written. Records without an
// instance id and ids written more than once are reported last, as
// Warnings naming the files and record positions.
func Convert(paths []string, o ConvertOptions, w io.Writer) (n int, errs []error) {
	var refs []RunRef
	defer func() {
		for _, warn := range IDWarnings(refs) {
			errs = append(errs, warn)
		}
	}()
	emit := func(path string, named bool) {
		if key := goldKey(path); named && key != "" {
			errs = append(errs, fmt.Errorf("%s: a gold file (its records hold %q and no traj_data), not runs or predictions: give it with --gold", path, key))
			return
		}
		recs, err := LoadPredictions(path, "")
		if err != nil {
			errs = append(errs, err)
		}
		if named && err == nil && !slices.ContainsFunc(recs, func(r unified.Record) bool { return !r.Skip }) {
			// A file named on the command line that gives nothing is an
			// error, as view says: not "0 records written" and success.
			errs = append(errs, fmt.Errorf("%s: no runs or prediction records (expected one of the formats: %s)", path, strings.Join(Formats(), ", ")))
		}
		observe := o.Lens == model.LensObserved
		timelines := (observe || o.Timelines != nil) && !isUnified(path)
		var runs []*model.Run
		if timelines {
			loaded, _ := Load(path, "")
			runs = pairRuns(recs, loaded)
		}
		for i := range recs {
			r := &recs[i]
			for _, note := range r.Notes {
				errs = append(errs, Warning(note))
			}
			if r.Skip {
				continue
			}
			if r.Err != nil {
				errs = append(errs, r.Err)
				continue
			}
			pred := r.Pred
			if observe {
				// A record without a timeline: its declared spans stand in.
				run := &model.Run{InstanceID: pred.InstanceID, Prediction: pred}
				if timelines {
					if run = runs[i]; run == nil {
						errs = append(errs, fmt.Errorf("%s: %s: no timeline to observe (the run's actions could not be read)", path, r.Pred.InstanceID))
						continue
					}
				}
				pred = o.observed(run, r.Pred)
			} else if timelines && runs[i] != nil {
				pred.StepActions = o.Timelines.StepActions(runs[i], pred)
			}
			if werr := writeRecord(w, &pred); werr != nil {
				errs = append(errs, fmt.Errorf("%s: writing %s: %w", path, r.Pred.InstanceID, werr))
				continue
			}
			n++
			refs = append(refs, RunRef{Path: path, Pos: n, ID: r.Pred.InstanceID})
		}
	}
	named := map[string]bool{}
	for _, p := range paths {
		named[filepath.Clean(p)] = true
	}
	for _, p := range paths {
		if _, err := inputfile.Stat(p); err != nil {
			errs = append(errs, err)
			continue
		}
		if main := Continues(p); main != "" && named[filepath.Clean(main)] {
			// Named beside the file it continues: that run reads it, and
			// one run is one record.
			errs = append(errs, Warning(fmt.Sprintf("%s: read as the continuation of %s", p, main)))
			continue
		}
		if !IsCollection(p) {
			emit(p, true)
			continue
		}
		found, werrs := Walk(p, o.Recursive)
		errs = append(errs, werrs...)
		for _, f := range found {
			emit(f, false)
		}
	}
	return n, errs
}

// writeRecord writes one unified record and a newline. Upstream writes
// every character raw (ensure_ascii=False); runes a terminal acts on or a
// reader cannot see (DEL, C1, bidirectional overrides, zero-width) are
// written as \u escapes instead, as score and view --json do: the record
// parses to the same values, and printing it cannot drive the terminal.
func writeRecord(w io.Writer, p *model.Prediction) error {
	b, err := unified.Append(nil, p)
	if err != nil {
		return err
	}
	_, err = w.Write(append(termsafe.JSON(b), '\n'))
	return err
}

// goldKeys are keys of gold records (ContextBench gold, LocAgent ground
// truth) that prediction records never hold.
var goldKeys = []string{"gold_ctx", "init_ctx", "file_changes", "found_files_gt", "edit_functions"}

// goldKey is the gold key the head of a file no trajectory format claims
// holds, when it holds no traj_data: the file is gold, not predictions;
// "" otherwise.
func goldKey(path string) string {
	if !isUnified(path) {
		return ""
	}
	head, err := readHead(path)
	if err != nil {
		return ""
	}
	if bytes.Contains(head, []byte(`"traj_data"`)) {
		return ""
	}
	for _, k := range goldKeys {
		if bytes.Contains(head, []byte(`"`+k+`"`)) {
			return k
		}
	}
	return ""
}

// isUnified reports a file of unified records (or one LoadPredictions read
// as records because no format claims it): they hold declared context and
// no timeline.
func isUnified(path string) bool {
	name, err := Detect(path)
	return err != nil || name == Unified
}

// observed is the observed prediction of run, whose record is pred.
func (o *ConvertOptions) observed(run *model.Run, pred model.Prediction) model.Prediction {
	run.Prediction = pred
	if o.Timelines == nil {
		return observed.Prediction(run, nil)
	}
	return o.Timelines.Observed(run)
}

// walkable reports a file found in a directory that Convert should read:
// one a format claims. Unified records must hold traj_data there, so that
// side files such as SWE-agent's *.pred (instance_id and model_patch only)
// are not taken for predictions. Only a regular file is read (a link is
// followed to one); the error says why a file could not be looked at.
func walkable(path string) (bool, error) {
	base := filepath.Base(path)
	if suffixOwner(base) != nil {
		// A name a format's rule claims is that format's (or the one
		// refining it): no need to sniff its content, which costs more than
		// the rest of listing a folder of runs.
		first, err := inputfile.HeadRegular(path, 256) // a Git LFS pointer says so on its first line
		return err == nil && !isLFSPointer(first), err
	}
	head, err := inputfile.HeadRegular(path, headSize)
	if err != nil {
		return false, err
	}
	switch detectContent(base, head) {
	case "":
		return false, nil
	case Unified:
		return bytes.Contains(head, []byte(`"traj_data"`)), nil
	case codex.Name:
		return !spawned(path, head), nil
	}
	return true, nil
}

// contRe names an ATIF continuation file (terminus-2 writes
// trajectory.cont-1.json beside trajectory.json).
var contRe = lazyre.New(`^(.+)\.cont-\d+\.json$`)

// continuation reports a file whose run is another file's beside it, so it
// is not a run of its own: an ATIF continuation (trajectory.cont-1.json
// beside trajectory.json), a Claude Code sub-agent's transcript
// (<id>/subagents/agent-*.jsonl beside <id>.jsonl), a Gemini CLI
// sub-agent's session (<id>/*.jsonl beside session-…-<id[:8]>.jsonl).
func continuation(path string) bool { return Continues(path) != "" }

// Continues is the file whose run reads the file at path as its
// continuation (an ATIF trajectory.cont-1.json's trajectory.json, a Claude
// Code sub-agent's session, a Gemini CLI per-session folder's session
// file), "" when there is none beside it.
func Continues(path string) string {
	base, dir := filepath.Base(path), filepath.Dir(path)
	exists := func(p string) string {
		if st, err := inputfile.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
		return ""
	}
	if m := contRe().FindStringSubmatch(base); m != nil {
		return exists(filepath.Join(dir, m[1]+".json"))
	}
	if strings.HasPrefix(base, "agent-") && strings.HasSuffix(base, ".jsonl") && filepath.Base(dir) == "subagents" {
		session := filepath.Dir(dir)
		if p := exists(session + ".jsonl"); p != "" {
			return p
		}
		// A session file named otherwise (a checkpoint's copy) whose
		// records name the folder's session id.
		return sessionNaming(filepath.Dir(session), filepath.Base(session))
	}
	if stream := harborStream(path); stream != "" {
		return stream
	}
	if id := filepath.Base(dir); id != "" && !strings.ContainsAny(id, "*?[\\") && (strings.HasSuffix(base, ".jsonl") || strings.HasSuffix(base, ".json")) {
		if found := inputfile.Glob(filepath.Join(filepath.Dir(dir), "session-*-"+id[:min(8, len(id))]+".json*")); len(found) > 0 {
			return found[0]
		}
	}
	return ""
}

// harborStream is, for the Claude Code session file Harbor keeps of a
// trial (<agent>/sessions/projects/<dir>/<id>.jsonl), the stream-json of
// the same session beside it (<agent>/claude-code.txt, whose head names
// the session id): one run recorded twice, read once from the stream,
// which holds its sub-agents' messages and its own token total. "" when
// path is no such file.
func harborStream(path string) string {
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	projects := filepath.Dir(filepath.Dir(path))
	if id == filepath.Base(path) || filepath.Base(projects) != "projects" || filepath.Base(filepath.Dir(projects)) != "sessions" ||
		!safeSessionID().MatchString(id) {
		return ""
	}
	stream := filepath.Join(filepath.Dir(filepath.Dir(projects)), "claude-code.txt")
	head, err := inputfile.HeadRegular(stream, 64<<10)
	if err != nil {
		return ""
	}
	if bytes.Contains(head, []byte(`"session_id":"`+id+`"`)) || bytes.Contains(head, []byte(`"session_id": "`+id+`"`)) {
		return stream
	}
	return ""
}

// sessionNaming is the JSON-lines file of dir whose first records name
// session id (`"sessionId": "ID"`), "" for none: the session whose
// sub-agents' folder is dir/ID.
func sessionNaming(dir, id string) string {
	if !safeSessionID().MatchString(id) {
		return ""
	}
	key := []byte(`"sessionId":"` + id + `"`)
	spaced := []byte(`"sessionId": "` + id + `"`)
	files := inputfile.Glob(filepath.Join(dir, "*.jsonl"))
	sort.Strings(files)
	for i, f := range files {
		if i == 64 {
			break // a folder of many sessions: the usual name finds them
		}
		head, err := inputfile.HeadRegular(f, 4096)
		if err == nil && (bytes.Contains(head, key) || bytes.Contains(head, spaced)) {
			return f
		}
	}
	return ""
}

var safeSessionID = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

// spawnedRe finds a Codex rollout's parent thread in its first line.
var spawnedRe = lazyre.New(`"thread_spawn"\s*:\s*\{[^}]*"parent_thread_id"\s*:\s*"([0-9a-f-]{36})"`)

// spawned reports a Codex sub-agent's rollout whose parent's rollout is in
// the same folder: the parent's run reads it.
func spawned(path string, head []byte) bool {
	first, _, _ := bytes.Cut(head, []byte("\n"))
	m := spawnedRe().FindSubmatch(first)
	return m != nil && len(inputfile.Glob(filepath.Join(filepath.Dir(path), "rollout-*-"+string(m[1])+".jsonl"))) > 0
}

// walk lists the convertible files and format directories (OpenHands
// llm_completions) under dir, in name order.
func walk(dir string, recursive bool, errs *[]error) []string {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			*errs = append(*errs, err)
			return nil
		}
		if d.IsDir() {
			if path == dir {
				return nil
			}
			if dirFormat(path) != nil {
				out = append(out, path)
				return fs.SkipDir
			}
			if !recursive {
				return fs.SkipDir
			}
			return nil
		}
		if continuation(path) {
			return nil // read with the trajectory it continues
		}
		ok, err := walkable(path)
		switch {
		case errors.Is(err, inputfile.ErrNotRegular):
			*errs = append(*errs, Warning(err.Error()))
		case err != nil:
			*errs = append(*errs, err)
		case ok:
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		*errs = append(*errs, err)
	}
	return out
}

// Walk lists the files and format directories under dir that a format
// claims, as Convert reads a directory: in name order, subdirectories too
// when recursive. A directory that is itself a format's (an OpenHands
// llm_completions directory) is one unit and lists as itself. errs names
// what could not be listed.
func Walk(dir string, recursive bool) (paths []string, errs []error) {
	if archive.Is(dir) {
		return walkArchive(dir, &errs), errs
	}
	if dirFormat(dir) != nil {
		return []string{dir}, nil
	}
	return walk(dir, recursive, &errs), errs
}

// walkArchive lists the members of an archive (.tar.gz, .tgz, .tar, .zip)
// that a format claims, as walk lists a folder's files: read into memory,
// never extracted.
func walkArchive(name string, errs *[]error) []string {
	members, skipped, err := archive.Mount(name)
	for _, s := range skipped {
		*errs = append(*errs, Warning(s))
	}
	if err != nil {
		*errs = append(*errs, err)
		return nil
	}
	var out []string
	for _, p := range members {
		if continuation(p) {
			continue
		}
		switch ok, err := walkable(p); {
		case err != nil:
			*errs = append(*errs, err)
		case ok:
			out = append(out, p)
		}
	}
	return out
}

// IsCollection reports a path that holds runs as a folder does: a
// directory (other than a format's own) or an archive.
func IsCollection(path string) bool {
	if archive.Is(path) {
		return true
	}
	st, err := inputfile.Stat(path)
	return err == nil && st.IsDir() && dirFormat(path) == nil
}
