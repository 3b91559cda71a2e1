package parsers

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/agentless"
	"github.com/trajscope/trajscope/parsers/agentlessloc"
	"github.com/trajscope/trajscope/parsers/agentstackbench"
	"github.com/trajscope/trajscope/parsers/aider"
	"github.com/trajscope/trajscope/parsers/atif"
	"github.com/trajscope/trajscope/parsers/claudecode"
	"github.com/trajscope/trajscope/parsers/codex"
	"github.com/trajscope/trajscope/parsers/gemini"
	"github.com/trajscope/trajscope/parsers/goose"
	"github.com/trajscope/trajscope/parsers/goosedb"
	"github.com/trajscope/trajscope/parsers/internal/loader"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/parsers/miniswev2"
	"github.com/trajscope/trajscope/parsers/opencode"
	"github.com/trajscope/trajscope/parsers/opencodedb"
	"github.com/trajscope/trajscope/parsers/openhands"
	"github.com/trajscope/trajscope/parsers/prometheus"
	"github.com/trajscope/trajscope/parsers/qwencode"
	"github.com/trajscope/trajscope/parsers/retrievalevents"
	"github.com/trajscope/trajscope/parsers/sweagent"
	"github.com/trajscope/trajscope/parsers/unified"
)

// Unified is the format name of ContextBench unified prediction records
// (*.jsonl / *.json with traj_data), what score consumes.
const Unified = "unified"

// ErrUnknownFormat is wrapped by the error for a format name that is not
// one of Formats (a --format typo).
var ErrUnknownFormat = errors.New("unknown format")

// format is one run format: everything detection, loading, the reference
// evaluator's way of reading predictions, and conversion need to know.
type format struct {
	name string
	// aliases are other names --format accepts.
	aliases []string
	// suffixes are the file names the reference evaluator's load_pred
	// hands to this format's extractor; Detect trusts them before content.
	// No suffix of one format ends another's.
	suffixes []string
	// refines names the format whose suffix this one's files carry: Detect
	// names this format when its sniffer agrees, while the reference
	// evaluator still reads the file with the suffix owner's extractor.
	refines string
	// sniff recognises a file of any name by its base name and first bytes.
	sniff func(name string, head []byte) bool
	// parse reads a file's runs.
	parse loader.Parser
	// isDir and loadDir recognise and read a directory of this format.
	isDir   func(path string) bool
	loadDir loader.DirLoader
	// jsonl is load_pred's content test for a *.jsonl file of this format.
	jsonl func(path string) bool
	// records reads prediction records as they are, for a format that holds
	// records rather than runs.
	records func(path string) ([]unified.Record, error)
	// tail follows a file an agent is still writing, reading what was
	// appended (nil: read whole each time).
	tail func(path string) follower
	// open, when set, reads the runs at path itself rather than from the
	// file's bytes (a database, opened by its driver).
	open func(path string) ([]model.Run, error)
	// store marks a file where an agent keeps all its sessions, one run
	// each (a database), not one session's file.
	store bool
}

// formats lists every format, in the order content detection tries them:
// the unmistakable markers first (schema stamps, context markers, stage
// keys), then the chat transcripts whose markers are looser.
var formats = []format{
	{name: Unified, aliases: []string{"contextbench", "contextbench-unified", "predictions"},
		sniff: sniffUnified, records: unified.ReadFile},
	{name: openhands.Name, suffixes: []string{"output.jsonl"},
		sniff: openhands.Sniff, parse: openhands.ParseRuns,
		isDir: openhands.IsDir, loadDir: openhands.LoadAnyDir, jsonl: openhands.IsHistoryJSONL},
	{name: atif.Name, aliases: []string{"harbor"},
		sniff: atif.Sniff, parse: atif.ParseRuns},
	{name: retrievalevents.Name, aliases: []string{"retrieval_events"}, suffixes: []string{".retrieval_events.json"},
		sniff: retrievalevents.Sniff, parse: retrievalevents.ParseRuns},
	{name: prometheus.Name, suffixes: []string{".log"},
		sniff: sniffPrometheusContent, parse: loader.Named(prometheus.Parse)},
	{name: agentless.Name, suffixes: []string{"_traj.json"},
		sniff: sniffAgentlessContent, parse: loader.Named(agentless.Parse)},
	{name: agentlessloc.Name,
		sniff: agentlessloc.Sniff, parse: agentlessloc.ParseRuns},
	{name: miniswev2.Name, aliases: []string{"mini-swe-agent-1.1"}, refines: miniswe.Name,
		sniff: miniswev2.Sniff, parse: miniswev2.ParseRuns},
	{name: miniswe.Name, aliases: []string{"mini-swe-agent", "miniswe", "mini-swe-agent-1"}, suffixes: []string{".traj.json"},
		sniff: sniffMiniSWEContent, parse: loader.Named(miniswe.Parse)},
	{name: sweagent.Name, aliases: []string{"sweagent"}, suffixes: []string{".checkpoints.jsonl", ".context.json", "patch_context.txt", ".traj"},
		sniff: sweagent.Sniff, parse: sweagent.ParseRuns},
	{name: agentstackbench.Name, aliases: []string{"asb"},
		sniff: agentstackbench.Sniff, parse: agentstackbench.ParseRuns},
	{name: aider.Name,
		sniff: aider.Sniff, parse: aider.ParseRuns},
	{name: codex.Name, aliases: []string{"codex-cli", "codex-rollout"},
		sniff: codex.Sniff, parse: codex.ParseRuns,
		tail: func(path string) follower { return codex.NewTail(path) }},
	{name: opencode.Name,
		sniff: opencode.Sniff, parse: opencode.ParseRuns},
	{name: opencodedb.Name, aliases: []string{"opencode-sqlite"},
		sniff: opencodedb.Sniff, open: opencodedb.Load, parse: notFromBytes(opencodedb.Name), store: true},
	{name: goose.Name,
		sniff: goose.Sniff, parse: goose.ParseRuns},
	{name: goosedb.Name, aliases: []string{"goose-sqlite"},
		sniff: goosedb.Sniff, open: goosedb.Load, parse: notFromBytes(goosedb.Name), store: true},
	{name: qwencode.Name, aliases: []string{"qwen"},
		sniff: qwencode.Sniff, parse: qwencode.ParseRuns},
	{name: gemini.Name, aliases: []string{"gemini"},
		sniff: gemini.Sniff, parse: gemini.ParseRuns},
	{name: claudecode.Name, aliases: []string{"claude"},
		sniff: claudecode.Sniff, parse: claudecode.ParseRuns,
		tail: func(path string) follower { return claudecode.NewTail(path) }},
}

// The per-format sniffers also accept their file names; content detection
// runs only on names the suffix rules did not claim, so these wrappers keep
// to the content.
func sniffPrometheusContent(_ string, head []byte) bool {
	// A log is text: JSON that merely quotes the markers is not one.
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(t) > 0 && t[0] != '{' && t[0] != '[' && prometheus.Sniff("", head)
}
func sniffAgentlessContent(_ string, head []byte) bool { return agentless.Sniff("", head) }
func sniffMiniSWEContent(_ string, head []byte) bool   { return miniswe.Sniff("", head) }

// SessionStore reports whether the file at path, in format ("" detects
// it), is where an agent keeps all its sessions (Goose's and OpenCode's
// databases) rather than one session's file: following it means
// following one session of it.
func SessionStore(path, format string) bool {
	f, err := formatOf(path, format)
	return err == nil && f.store
}

// notFromBytes is the parser of a format read only from a file on disk: its
// bytes alone (an archive's member) are refused in one line.
func notFromBytes(name string) loader.Parser {
	return func(path string, _ []byte) ([]model.Run, error) {
		return nil, fmt.Errorf("%s: a %s file is read where it lies on disk, not from an archive or a stream", path, name)
	}
}

// load reads the runs at path with the format's own reader.
func (f *format) load(path string) ([]model.Run, error) {
	if f.open != nil {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			runs, err := f.open(path)
			return marked(loader.Read(path, runs, err))
		}
	}
	if f.records != nil {
		recs, err := f.records(path)
		if err != nil {
			return nil, err
		}
		return recordRuns(path, f.name, recs)
	}
	return marked(loader.Load(path, f.parse, f.loadDir))
}

// marked finishes a format's runs: submissions the run rejected marked.
func marked(runs []model.Run, err error) ([]model.Run, error) {
	for i := range runs {
		model.MarkRejectedSubmits(&runs[i])
	}
	return runs, err
}

// predictions reads the records the reference evaluator would: a records
// format as it is, any other one record per run.
func (f *format) predictions(path string) ([]unified.Record, error) {
	if f.records != nil {
		return f.records(path)
	}
	if f.open != nil {
		if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() {
			return runRecords(f.open(path))
		}
	}
	return runRecords(loader.LoadPredictions(path, f.parse, f.loadDir))
}

// lookup finds a format by name or alias.
func lookup(name string) (*format, bool) {
	for i := range formats {
		f := &formats[i]
		if f.name == name {
			return f, true
		}
		for _, a := range f.aliases {
			if a == name {
				return f, true
			}
		}
	}
	return nil, false
}

// named is lookup with the error a caller reports for an unknown name.
func named(path, name string) (*format, error) {
	if f, ok := lookup(name); ok {
		return f, nil
	}
	return nil, fmt.Errorf("%s: %w %q (known: %s)", path, ErrUnknownFormat, name, strings.Join(Formats(), ", "))
}

// suffixOwner is the format whose reference file-name rule claims base.
func suffixOwner(base string) *format {
	for i := range formats {
		for _, x := range formats[i].suffixes {
			if strings.HasSuffix(base, x) {
				return &formats[i]
			}
		}
	}
	return nil
}

// refinement is the format that refines owner and recognises the file.
func refinement(owner *format, base string, head []byte) *format {
	for i := range formats {
		if f := &formats[i]; f.refines == owner.name && f.sniff(base, head) {
			return f
		}
	}
	return nil
}

// dirFormat is the format that recognises the directory at path.
func dirFormat(path string) *format {
	for i := range formats {
		if f := &formats[i]; f.isDir != nil && f.isDir(path) {
			return f
		}
	}
	return nil
}

// Formats returns the format names Load and --format accept, sorted.
func Formats() []string {
	var names []string
	for _, f := range formats {
		names = append(names, f.name)
	}
	sort.Strings(names)
	return names
}

// Known reports whether name is a format name or alias Load accepts.
func Known(name string) bool {
	_, ok := lookup(name)
	return ok
}
