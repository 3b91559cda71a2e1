package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/scoring"
)

// Rows of a results file taken one at a time, and rows left out: what
// report streams of a results file of any size, and the infrastructure
// failures --skip-infra leaves out.

// Streams reports a results file read a row at a time: upstream JSONL
// rows (a regular file whose first line is a row, or a compressed .jsonl),
// not a document. Such a file has no bound on its size, one on each row.
func Streams(path string) bool {
	if inputfile.Compressed(path) {
		return strings.HasSuffix(inputfile.Uncompressed(path), ".jsonl")
	}
	// A FIFO is read once, whole; a file that does not start with a row
	// is read whole too, and its error says what it holds instead.
	if st, err := inputfile.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	head, err := inputfile.Head(path, 1<<20)
	if err != nil {
		return false
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	line, _, found := bytes.Cut(head, []byte("\n"))
	if !found {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	_, row := probe["instance_id"]
	_, doc := probe["results"]
	return row && !doc
}

// EachRow reads the upstream JSONL rows of path one line at a time (a
// stream: compressed and standard input too) and gives each to fn, which
// must not keep it. A row that does not parse is an error naming its line.
func EachRow(path string, fn func(*Instance) error) error {
	return inputfile.EachLine(path, 1, 0, func(n int, line []byte, err error) error {
		if err != nil {
			return err
		}
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return nil
		}
		in, err := parseRow(line)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", termsafe.Line(path), n, err)
		}
		in.Where = fmt.Sprintf("line %d", n)
		return fn(&in)
	})
}

// CountError counts r's rows with error e.
func CountError(r *ResultFile, e string) int {
	n := 0
	for i := range r.Instances {
		if r.Instances[i].Result.Error == e {
			n++
		}
	}
	return n
}

// LeaveOutInfra removes the rows that failed for want of the repository
// (checkout_failed): an infrastructure failure, not the run's, that every
// mean would otherwise count as 0 recall. LeftOut counts them.
func (r *ResultFile) LeaveOutInfra() {
	kept := r.Instances[:0]
	for _, in := range r.Instances {
		if in.Result.Error == scoring.ErrCheckoutFailed {
			r.LeftOut++
			continue
		}
		kept = append(kept, in)
	}
	r.Instances = kept
}
