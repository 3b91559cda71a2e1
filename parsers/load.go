package parsers

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/unified"
)

// Load reads the runs in path. format "" detects it (see Detect); a format
// name (see Formats; --format) overrides detection. Unified prediction
// records give runs with only the Prediction filled in, no actions.
//
// A file of many runs may have a few bad ones: Load then returns the good
// runs and an error naming the bad records, together.
func Load(path, format string) ([]model.Run, error) {
	f, err := formatOf(path, format)
	if err != nil {
		return nil, err
	}
	return f.load(path)
}

// formatOf is the format of the file at path: format's, or the one
// detected when format is "".
func formatOf(path, format string) (*format, error) {
	if format == "" {
		var err error
		if format, err = Detect(path); err != nil {
			return nil, err
		}
	}
	return named(path, format)
}

// recordRuns turns prediction records into runs; records upstream drops
// silently (no instance id) are dropped, records it would crash on are
// reported.
func recordRuns(path, format string, recs []unified.Record) ([]model.Run, error) {
	var runs []model.Run
	var errs []error
	eachRecord(recs, func(r *unified.Record) {
		runs = append(runs, model.Run{InstanceID: r.Pred.InstanceID, Format: format, Prediction: r.Pred, Path: path})
	}, func(err error) { errs = append(errs, err) })
	return runs, errors.Join(errs...)
}

// eachRecord hands each record to use, or its error to fail when upstream
// would crash on it, in file order; records upstream skips silently (no
// instance id) are dropped.
func eachRecord(recs []unified.Record, use func(*unified.Record), fail func(error)) {
	for i := range recs {
		switch r := &recs[i]; {
		case r.Skip:
		case r.Err != nil:
			fail(r.Err)
		default:
			use(r)
		}
	}
}

// LoadPredictions reads prediction records from path the way the reference
// evaluator's load_pred does for --pred, so scores match it:
//
//   - a Git LFS pointer is an error, unless the path names "verified" and
//     "output" and a sibling llm_completions directory exists, which is read
//     instead;
//   - a file a format's suffix claims (.traj.json, .checkpoints.jsonl,
//     _traj.json, .log, .context.json, patch_context.txt, .traj,
//     output.jsonl) is read by that format, one record per run (every
//     .traj.json goes through the mini-swe-agent extractor, v2 included);
//   - any .jsonl whose first record holds "history" and an instance id is
//     OpenHands, one record per line;
//   - other files are unified records (JSONL, or a JSON list or object),
//     except that a renamed trajectory file is recognised by its content and
//     read with its format's loader.
//
// format, when set, overrides all of this. Records upstream would crash on
// carry their error in Record.Err; Skip records are kept (upstream drops
// them silently, and so must a scorer).
func LoadPredictions(path, format string) ([]unified.Record, error) {
	if format != "" {
		f, err := named(path, format)
		if err != nil {
			return nil, err
		}
		return f.predictions(path)
	}
	st, err := inputfile.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		// Upstream's load_pred open()s the path and fails on a directory;
		// an llm_completions directory is what it would have wanted.
		if f := dirFormat(path); f != nil {
			return f.predictions(path)
		}
		return nil, fmt.Errorf("%s: is a directory; --pred takes a file (use convert for directories)", path)
	}
	head, err := readHead(path)
	if err != nil {
		return nil, err
	}
	if isLFSPointer(head) {
		// A Verified OpenHands output.jsonl kept in Git LFS: upstream reads
		// the llm_completions directory beside it.
		sibling := filepath.Join(filepath.Dir(path), "llm_completions")
		if strings.Contains(path, "verified") && strings.Contains(path, "output") {
			if f := dirFormat(sibling); f != nil {
				return f.predictions(sibling)
			}
		}
		return nil, fmt.Errorf("%s: is a Git LFS pointer, not the file: run `git lfs pull --include '%s'`", path, path)
	}
	base := filepath.Base(path)
	if f := suffixOwner(base); f != nil {
		return f.predictions(path)
	}
	if strings.HasSuffix(base, ".jsonl") {
		for i := range formats {
			if f := &formats[i]; f.jsonl != nil && f.jsonl(path) {
				return f.predictions(path)
			}
		}
	}
	name := detectContent(base, head)
	if f, ok := lookup(name); ok && f.records == nil {
		return f.predictions(path)
	}
	recs, err := unified.ReadFile(path)
	if err != nil && name == "" {
		// Upstream would json.load it as records; say what else was tried.
		return nil, fmt.Errorf("%w (no format matched by name or content; tried %s)", err, strings.Join(Formats(), ", "))
	}
	return recs, err
}

// runRecords turns loaded runs into records, one per run.
func runRecords(runs []model.Run, err error) ([]unified.Record, error) {
	if len(runs) == 0 && err != nil {
		return nil, err
	}
	recs := make([]unified.Record, 0, len(runs))
	for i := range runs {
		recs = append(recs, unified.Record{Pred: runs[i].Prediction, Notes: ReadingNotes(&runs[i])})
	}
	return recs, err
}

// ReadingNotes says, one line each, what the reader of run did not
// understand ("<file>: claude-code: not understood: 320
// progress:agent_progress") and what it skipped ("<file>: codex: line 11
// skipped: …"); nil when it read everything.
func ReadingNotes(run *model.Run) []string {
	var out []string
	where := run.Path + ": " + run.Format + ": "
	if len(run.Unread) > 0 {
		kinds := make([]string, 0, len(run.Unread))
		for k := range run.Unread {
			kinds = append(kinds, k)
		}
		sort.Slice(kinds, func(i, j int) bool {
			if run.Unread[kinds[i]] != run.Unread[kinds[j]] {
				return run.Unread[kinds[i]] > run.Unread[kinds[j]]
			}
			return kinds[i] < kinds[j]
		})
		parts := make([]string, len(kinds))
		for i, k := range kinds {
			parts[i] = fmt.Sprintf("%d %s", run.Unread[k], k)
		}
		out = append(out, where+"not understood: "+strings.Join(parts, ", "))
	}
	for _, w := range run.Warnings {
		out = append(out, where+w)
	}
	if run.MoreWarnings > 0 {
		out = append(out, fmt.Sprintf("%s%d more lines skipped", where, run.MoreWarnings))
	}
	return out
}
