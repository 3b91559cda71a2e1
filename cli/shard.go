package cli

import (
	"fmt"
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
