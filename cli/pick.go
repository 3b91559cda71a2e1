package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// interactive reports whether the user can be asked a question: both stdin
// and stdout are terminals.
func interactive(env *Env) bool {
	f, ok := env.Stdin.(*os.File)
	return ok && isTerminal(f) && isTerminal(env.Stdout)
}

// askRun lists the runs of a multi-instance file and reads the user's
// choice: a number from the list or an instance id.
func askRun(runs []model.Run, in io.Reader, out io.Writer) (*model.Run, error) {
	fmt.Fprintf(out, "%d runs in this file:\n", len(runs))
	for i := range runs {
		size := fmt.Sprintf("%d actions", len(runs[i].Actions))
		if len(runs[i].Actions) == 0 {
			size = fmt.Sprintf("%d ContextBench steps", max(len(runs[i].Prediction.Steps), 1))
		}
		fmt.Fprintf(out, "%4d  %s  (%s)\n", i+1, safe(runs[i].InstanceID), size)
	}
	r := bufio.NewReader(in)
	for {
		fmt.Fprint(out, "open which one (number or instance id, empty to quit)? ")
		line, err := r.ReadString('\n')
		answer := strings.TrimSpace(line)
		if answer == "" {
			if err != nil && err != io.EOF {
				return nil, err
			}
			return nil, fmt.Errorf("no run chosen")
		}
		if n, convErr := strconv.Atoi(answer); convErr == nil && n >= 1 && n <= len(runs) {
			return &runs[n-1], nil
		}
		for i := range runs {
			if runs[i].InstanceID == answer {
				return &runs[i], nil
			}
		}
		fmt.Fprintf(out, "no run %q\n", safe(answer))
		if err != nil {
			return nil, fmt.Errorf("no run chosen")
		}
	}
}

// pickRun chooses the run to show from a file's runs.
func pickRun(runs []model.Run, id, path string) (*model.Run, error) {
	if id != "" {
		for i := range runs {
			if runs[i].InstanceID == id {
				return &runs[i], nil
			}
		}
		// Runs without ids (e.g. OpenHands records without instance_id) are
		// picked by position.
		if n, err := strconv.Atoi(strings.TrimPrefix(id, "#")); err == nil && n >= 1 && n <= len(runs) {
			return &runs[n-1], nil
		}
		return nil, fmt.Errorf("%s: no instance %q", path, safe(id))
	}
	switch len(runs) {
	case 0:
		return nil, fmt.Errorf("%s: no runs", path)
	case 1:
		return &runs[0], nil
	}
	var ids []string
	for i := 0; i < len(runs) && i < 3; i++ {
		name := safe(runs[i].InstanceID)
		if name == "" {
			name = fmt.Sprintf("#%d", i+1)
		}
		ids = append(ids, name)
	}
	return nil, usagef("%s holds %d runs; pick one with --instance ID or --instance N (e.g. %s)", path, len(runs), strings.Join(ids, ", "))
}
