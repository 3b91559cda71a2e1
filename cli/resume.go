package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/atomicfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring"
)

// resumed is what an interrupted `score --out FILE` left: the summary of its
// complete rows (a killed run's half-written last line is not one), and how many rows
// each instance id has, so that the rest of the predictions are scored and
// appended and the finished file is the uninterrupted run's.
type resumed struct {
	sum  scoring.Summarizer
	done map[string]int
	keep int64 // bytes of complete lines
	// scored are the ids of the rows that are not error rows: each must
	// be an instance of the gold.
	scored []string
}

// ofGold refuses a file whose scored rows name instances the gold has not:
// the results of another benchmark, not an interrupted run of this one.
func (r *resumed) ofGold(gs *gold.Set, sem model.Semantics, path string) error {
	for _, id := range r.scored {
		if _, ok := gs.Lookup(id, sem); !ok {
			return fmt.Errorf("--resume: %s holds a scored row of %q, which the gold has no instance of: not an interrupted run of this score (nothing was changed)", safe(path), safe(id))
		}
	}
	return nil
}

// readResumed reads FILE for --resume; a missing file is an empty start.
func readResumed(path string, stderr io.Writer) (*resumed, error) {
	r := &resumed{done: map[string]int{}}
	b, err := inputfile.ReadRegular(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return r, nil
	case err != nil:
		return nil, fmt.Errorf("--resume: %w", err)
	}
	end := bytes.LastIndexByte(b, '\n') + 1
	if tail := bytes.TrimSpace(b[end:]); len(tail) > 0 {
		// Only the start of a result row (as score writes it) is an
		// interrupted run's last line; anything else is not this file's
		// to cut.
		if !bytes.HasPrefix(b[end:], []byte(`{"instance_id": "`)) && !bytes.HasPrefix([]byte(`{"instance_id": "`), b[end:]) {
			return nil, fmt.Errorf("--resume: %s: its last line (%d bytes) is not the start of a result row; it is not the results of an interrupted score (nothing was changed)", safe(path), len(b)-end)
		}
		fmt.Fprintf(stderr, "trajscope: --resume: %s: the last line is incomplete (%d bytes, an interrupted run's): it is scored again\n", safe(path), len(b)-end)
	}
	r.keep = int64(end)
	if len(bytes.TrimSpace(b[:end])) == 0 {
		return r, nil
	}
	rows, format, err := report.Parse(b[:end], path)
	if err != nil {
		return nil, fmt.Errorf("--resume: %w (it is not the results of an interrupted score; nothing was changed)", err)
	}
	if format != "jsonl" {
		return nil, fmt.Errorf("--resume: %s is a JSON document, not a score --out file of JSON lines", safe(path))
	}
	for i := range rows {
		r.sum.Add(&rows[i].Result)
		r.done[rows[i].Result.InstanceID]++
		if rows[i].Result.Error == "" {
			r.scored = append(r.scored, rows[i].Result.InstanceID)
		}
	}
	return r, nil
}

// skip reports whether a prediction of instance id already has its row,
// counting it off: ids repeat when the predictions repeat them.
func (r *resumed) skip(id string) bool {
	if r == nil || r.done[id] == 0 {
		return false
	}
	r.done[id]--
	return true
}

// openResumed opens FILE to append the remaining rows after its complete
// lines.
func openResumed(path string, r *resumed, inputs ...string) (*atomicfile.File, error) {
	if input, same := atomicfile.SameFile(path, inputs...); same {
		return nil, usagef("--out %s names the input %s: it would be overwritten", safe(path), safe(input))
	}
	f, err := atomicfile.Append(path, r.keep)
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	return f, nil
}
