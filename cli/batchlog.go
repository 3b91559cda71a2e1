package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/trajscope/trajscope/model"
)

// batchLog prints a batch's error rows on stderr in input order, whatever
// order the workers finish in, so two runs of the same batch print the same
// lines; on a terminal it also keeps a progress counter on the last line.
type batchLog struct {
	w        io.Writer
	progress bool
	total    int
	budget   time.Duration // the parse budget, named in its warnings

	mu      sync.Mutex
	pending map[int]string // finished rows waiting for earlier ones
	next    int            // first row not yet printed
	count   int
}

func newBatchLog(w io.Writer, total int, budget time.Duration) *batchLog {
	return &batchLog{w: w, progress: isTerminal(w) && total > 1, total: total, budget: budget, pending: map[int]string{}}
}

// row records row i; safe for concurrent use.
func (l *batchLog) row(i int, r *model.Result) {
	line := ""
	if r.Error != "" && r.Reason != "" {
		// Unreadable records have no id; their reason names file and line.
		if r.InstanceID == "" {
			line = fmt.Sprintf("trajscope: %s: %s\n", r.Error, safe(r.Reason))
		} else {
			line = fmt.Sprintf("trajscope: %s: %s: %s\n", safe(r.InstanceID), r.Error, safe(r.Reason))
		}
	}
	for _, p := range r.ParseGaveUp {
		line += parseGaveUpLine(r.InstanceID, p, l.budget, r.SymbolNA)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.count++
	l.pending[i] = line
	if l.progress {
		fmt.Fprint(l.w, "\r\x1b[K")
	}
	for {
		line, ok := l.pending[l.next]
		if !ok {
			break
		}
		delete(l.pending, l.next)
		l.next++
		fmt.Fprint(l.w, line)
	}
	if l.progress {
		fmt.Fprintf(l.w, "scoring %d/%d", l.count, l.total)
	}
}

// finish clears the progress line.
func (l *batchLog) finish() {
	if l.progress {
		fmt.Fprint(l.w, "\r\x1b[K")
	}
}

// parseGaveUpLine is the warning for a file whose parse ran past budget
// (or was too large to parse within it: see the symbols package's BudgetBytes).
func parseGaveUpLine(id, path string, budget time.Duration, na bool) string {
	effect := "its definitions are missing from the symbol figures"
	if na {
		effect = "the symbol figures are null"
	}
	return fmt.Sprintf("trajscope: warning: %s: gave up parsing %s: past the %v budget (--parse-timeout): %s\n", safe(id), safe(path), budget, effect)
}
