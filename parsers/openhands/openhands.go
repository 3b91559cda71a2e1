// Package openhands loads OpenHands runs: `output.jsonl` (and the Multi
// per-language JSONL files) whose records hold an event `history`, and
// `llm_completions/` directories. The ContextBench prediction reproduces
// contextbench/agents/openhands exactly; the timeline lists every action
// event with its observation, in both the current and the older event
// formats.
package openhands

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "openhands"

const lfsPointer = "version https://git-lfs.github.com/spec/v1"

var (
	historyRe = lazyre.New(`"history"\s*:\s*(?:\[|null)`)
	idKeyRe   = lazyre.New(`"(?:instance_id|original_inst_id|instruction|test_result|git_patch|instance)"\s*:`)
	eventRe   = lazyre.New(`"(?:action|observation)"\s*:\s*"`)
	sweTrajRe = lazyre.New(`"trajectory"\s*:\s*\[`)
	// v1EventRe finds a V1 (software-agent-sdk) event.
	v1EventRe = lazyre.New(`"kind"\s*:\s*"(?:ActionEvent|ObservationEvent|MessageEvent|SystemPromptEvent)"`)
	sourceRe  = lazyre.New(`"source"\s*:\s*"(?:agent|user|environment)"`)
)

// Sniff reports whether a file is OpenHands output: by name (output.jsonl,
// an llm_completions directory) or by a first record holding an event
// history.
func Sniff(name string, head []byte) bool {
	if strings.HasSuffix(name, "output.jsonl") || filepath.Base(name) == "llm_completions" {
		return true
	}
	text := string(head)
	if strings.HasPrefix(strings.TrimLeft(text, " \t\r\n\ufeff"), "[") {
		// The UI's export: a bare list of events.
		return sourceRe().MatchString(text) && (eventRe().MatchString(text) || v1EventRe().MatchString(text)) &&
			!strings.Contains(text, `"schema_version"`) && !strings.Contains(text, `"traj_data"`)
	}
	if !strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{") {
		return false
	}
	first := text
	if i := strings.IndexByte(strings.TrimLeft(text, " \t\r\n"), '\n'); i >= 0 {
		first = strings.TrimLeft(text, " \t\r\n")[:i]
	}
	loc := historyRe().FindStringIndex(first)
	if loc == nil || sweTrajRe().MatchString(first) || !idKeyRe().MatchString(first) {
		return false
	}
	return strings.HasSuffix(first[loc[0]:loc[1]], "null") || eventRe().MatchString(first) || v1EventRe().MatchString(first)
}

// IsCompletionsDir reports whether dir is an llm_completions directory: one
// instance (it holds *.json completion logs) or the parent of instance
// directories.
func IsCompletionsDir(dir string) bool {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	if filepath.Base(filepath.Clean(dir)) == "llm_completions" {
		return true
	}
	if files := completionFiles(dir); len(files) > 0 {
		return looksLikeCompletion(files[len(files)-1])
	}
	for _, sub := range instanceDirs(dir) {
		if files := completionFiles(sub); len(files) > 0 {
			return looksLikeCompletion(files[len(files)-1])
		}
	}
	return false
}

func looksLikeCompletion(path string) bool {
	// mini-swe-agent, Agentless and SWE-agent files are *.json holding
	// "messages" too; their suffix claims them (a run directory of
	// <id>/<id>.traj.json is not llm_completions).
	base := filepath.Base(path)
	if strings.HasSuffix(base, ".traj.json") || strings.HasSuffix(base, "_traj.json") || strings.HasSuffix(base, ".context.json") {
		return false
	}
	head, err := inputfile.HeadRegular(path, 64<<10)
	return err == nil && strings.Contains(string(head), `"messages"`)
}

// ParseRuns reads OpenHands output, data, the content of the file at path:
// JSONL with one record per line; every record becomes a run. Records that
// cannot be read are reported together in the error, naming their lines,
// while the good ones are still returned. (Directories go to LoadDir.)
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	if firstLine(data) == lfsPointer {
		// Upstream's load_pred: a Verified output.jsonl kept in Git LFS is
		// replaced by the llm_completions directory beside it.
		sib := filepath.Join(filepath.Dir(path), "llm_completions")
		if strings.Contains(path, "verified") && strings.Contains(path, "output") {
			if s, err := os.Stat(sib); err == nil && s.IsDir() {
				return loadCompletionsRoot(sib)
			}
		}
		return nil, fmt.Errorf("%s: line 1: a Git LFS pointer, not the file (run `git lfs pull`)", path)
	}
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '[' {
		return exportRun(path, data)
	}
	return loadJSONL(path, data)
}

// exportRun reads the OpenHands UI's trajectory export, a bare JSON list
// of events, as one run named by its file.
func exportRun(path string, data []byte) ([]model.Run, error) {
	v, err := toolcall.Decode(data)
	if err != nil {
		return nil, jsontree.At(path, err)
	}
	events := v.Items()
	for i, e := range events {
		if e.Object() == nil {
			return nil, fmt.Errorf("%s: event %d: expected a JSON object, found %s", path, i, e.Describe())
		}
	}
	base := filepath.Base(path)
	id := strings.TrimSuffix(base, filepath.Ext(base))
	rec := &jsontree.Value{Kind: jsontree.Object, Obj: []jsontree.Member{
		{Key: "instance_id", Val: jsontree.NewString(id)},
		{Key: "history", Val: v},
	}}
	run, err := recordRun(rec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	run.Format, run.Path, run.Agent = Name, path, "openhands"
	for _, e := range events {
		// The model is in each call's response.
		if m := e.Get("tool_call_metadata").Get("model_response").Get("model").Text(); m != "" {
			run.Model = m
			break
		}
	}
	return []model.Run{run}, nil
}

func firstLine(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	// Only the stripped line is copied, and only when it is short enough
	// to be a pointer: a record line can be 100 MB.
	if data = bytes.TrimFunc(data, python.IsSpace); len(data) > len(lfsPointer) {
		return ""
	}
	return string(data)
}

func loadJSONL(path string, data []byte) ([]model.Run, error) {
	var runs []model.Run
	var errs []error
	// Lines are cut from data in place: a line of 100 MB is never copied
	// (a Scanner's buffer would grow to it, twice over).
	lineNo := 0
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		lineNo++
		if len(bytes.TrimFunc(line, python.IsSpace)) == 0 {
			continue
		}
		run, err := loadRecord(line)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: line %d: %w", path, lineNo, err))
			continue
		}
		run.Format = Name
		run.Path = path
		if run.Agent == "" {
			run.Agent = "openhands"
		}
		runs = append(runs, run)
	}
	if len(runs) == 0 && len(errs) == 0 {
		errs = append(errs, fmt.Errorf("%s: no records (expected one JSON object per line with a \"history\")", path))
	}
	return runs, errors.Join(errs...)
}

func loadRecord(line []byte) (model.Run, error) {
	if !utf8.Valid(line) {
		return model.Run{}, errors.New("invalid UTF-8 (expected UTF-8 JSON)")
	}
	v, err := jsontree.Parse(line)
	if err != nil {
		return model.Run{}, err
	}
	rec := v.Object()
	if rec == nil {
		return model.Run{}, fmt.Errorf("expected a JSON object, found %s", v.Describe())
	}
	return recordRun(rec)
}

// IsHistoryJSONL is the reference load_pred's test for per-language
// OpenHands JSONL (any *.jsonl name): the first non-empty line is an object
// holding "history" and "instance_id" or "original_inst_id". A line that is
// not JSON makes the reference fall back to unified records.
func IsHistoryJSONL(path string) bool {
	f, err := inputfile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	for {
		line, err := r.ReadString('\n')
		if s := python.StripSpace(line); s != "" {
			v, perr := jsontree.Parse([]byte(s))
			if perr != nil || v.Kind != jsontree.Object {
				return false
			}
			_, hist := v.Lookup("history")
			_, id := v.Lookup("instance_id")
			_, orig := v.Lookup("original_inst_id")
			return hist && (id || orig)
		}
		if err != nil {
			return false
		}
	}
}
