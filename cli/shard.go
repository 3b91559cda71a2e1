package cli

import (
	"fmt"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/parsers"
	"strconv"
	"strings"
)

// resolveShard turns --shard auto, or auto/N, into K/N from the scheduler's
// environment: a Slurm array (SLURM_ARRAY_TASK_ID counted from
// SLURM_ARRAY_TASK_MIN by SLURM_ARRAY_TASK_STEP, SLURM_ARRAY_TASK_COUNT
// tasks) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX from 0; the
// count is auto/N's, as the Job's completions are not in its pods'
// environment). Anything else is returned as it is.
func resolveShard(s string, getenv func(string) string) (string, error) {
	rest, ok := strings.CutPrefix(s, "auto")
	if !ok {
		return s, nil
	}
	n := 0
	if rest != "" {
		ns, ok := strings.CutPrefix(rest, "/")
		v, err := strconv.Atoi(ns)
		if !ok || err != nil || v < 1 {
			return "", usagef("--shard %q: want auto, or auto/N with N the number of shards", safe(s))
		}
		n = v
	}
	num := func(name string, def int) (int, bool) {
		v := getenv(name)
		if v == "" {
			return def, def >= 0
		}
		i, err := strconv.Atoi(v)
		return i, err == nil
	}
	if id := getenv("SLURM_ARRAY_TASK_ID"); id != "" {
		task, ok1 := num("SLURM_ARRAY_TASK_ID", -1)
		lo, ok2 := num("SLURM_ARRAY_TASK_MIN", 0)
		step, ok3 := num("SLURM_ARRAY_TASK_STEP", 1)
		count, ok4 := num("SLURM_ARRAY_TASK_COUNT", -1)
		if !ok1 || !ok2 || !ok3 || !ok4 || step < 1 || task < lo || (task-lo)%step != 0 {
			return "", usagef("--shard auto: the Slurm array's variables do not say which task this is (SLURM_ARRAY_TASK_ID %q, _MIN %q, _STEP %q, _COUNT %q)",
				safe(id), safe(getenv("SLURM_ARRAY_TASK_MIN")), safe(getenv("SLURM_ARRAY_TASK_STEP")), safe(getenv("SLURM_ARRAY_TASK_COUNT")))
		}
		if n != 0 && n != count {
			return "", usagef("--shard auto/%d: the Slurm array has %d tasks", n, count)
		}
		return fmt.Sprintf("%d/%d", (task-lo)/step+1, count), nil
	}
	if idx := getenv("JOB_COMPLETION_INDEX"); idx != "" {
		i, err := strconv.Atoi(idx)
		if err != nil || i < 0 {
			return "", usagef("--shard auto: JOB_COMPLETION_INDEX %q is not an index", safe(idx))
		}
		if n == 0 {
			return "", usagef("--shard auto: in a Kubernetes Indexed Job give the number of shards, --shard auto/N (the Job's completions)")
		}
		if i >= n {
			return "", usagef("--shard auto/%d: JOB_COMPLETION_INDEX %d is past the last shard", n, i)
		}
		return fmt.Sprintf("%d/%d", i+1, n), nil
	}
	return "", usagef("--shard auto: neither a Slurm array (SLURM_ARRAY_TASK_ID) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) is in the environment; give --shard K/N")
}

// slice is the part of --pred one score reads: lines (or, for a folder or
// archive, run files) numbered [from, to) from 1 (to ≤ 0: to the end) of
// total; count is how many that is, for the progress counter (0 when not
// counted).
type slice struct {
	unit            string // "lines" or "files"
	from, to, total int
	count           int
}

// sliceOf finds shard k of n of pred: a pass that counts line ends and
// decodes nothing (or the folder's run files), then the k-th of n
// contiguous parts, as scoring.Shard cuts a list. The whole (n ≤ 1) is
// counted only for a terminal's progress counter.
func sliceOf(pred string, k, n int, progress bool) (slice, error) {
	whole := slice{unit: "lines", from: 1}
	if parsers.IsCollection(pred) {
		if n <= 1 {
			return slice{unit: "files", from: 1}, nil
		}
		files, _ := parsers.Walk(pred, true) // the reading says what it skips
		whole.unit, whole.total = "files", len(files)
	} else {
		if n <= 1 && !progress || pred == inputfile.Stdin {
			if n > 1 {
				return slice{}, usagef("--shard reads its slice of --pred after counting its lines: give a file, not standard input")
			}
			return whole, nil
		}
		total, err := inputfile.CountLines(pred)
		if err != nil {
			return slice{}, err
		}
		whole.total = total
	}
	if n <= 1 {
		whole.count = whole.total
		return whole, nil
	}
	// As scoring.Shard cuts instances: [(k-1)·l/n, k·l/n), 0-based.
	lo, hi := (k-1)*whole.total/n, k*whole.total/n
	whole.from, whole.to, whole.count = lo+1, hi+1, hi-lo
	return whole, nil
}
