// Package sweagent loads SWE-agent runs: the ContextBench-patched
// `.checkpoints.jsonl`, `.traj` trajectories (1.x and 0.x), `.context.json`
// and `patch_context.txt`. The ContextBench prediction reproduces
// contextbench/agents/sweagent/extract.py exactly; the timeline lists every
// action with what its observation really showed.
package sweagent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/loader"
)

// Name is the format name used by detection and --format.
const Name = "swe-agent"

// kind is one of the SWE-agent files.
type kind int

const (
	kindUnknown kind = iota
	kindCheckpoints
	kindContextJSON
	kindPatchContext
	kindTraj
)

// kindBySuffix follows upstream's order (agents.extract_trajectory).
func kindBySuffix(name string) kind {
	switch {
	case strings.HasSuffix(name, ".checkpoints.jsonl"):
		return kindCheckpoints
	case strings.HasSuffix(name, ".context.json"):
		return kindContextJSON
	case strings.HasSuffix(name, "patch_context.txt"):
		return kindPatchContext
	case strings.HasSuffix(name, ".traj"):
		return kindTraj
	}
	return kindUnknown
}

var (
	ckptLineRe     = lazyre.New(`^\s*\{.*"(?:tool|action)"\s*:`)
	ckptPatchRe    = lazyre.New(`^\s*\{.*"type"\s*:\s*"patch_context"`)
	trajListRe     = lazyre.New(`"trajectory"\s*:\s*\[`)
	trajStepKeyRe  = lazyre.New(`"(?:action|thought|observation|response)"\s*:`)
	foreignTrajRe  = lazyre.New(`"(?:trajectory_format|schema_version)"\s*:`)
	contextJSONRe  = lazyre.New(`"(?:file_line_ranges|viewed_files)"\s*:`)
	patchLineStart = lazyre.New(`^(?:File:|Lines:)`)
)

// kindByContent recognises a renamed file from its first bytes.
func kindByContent(head []byte) kind {
	text := string(head)
	trimmed := strings.TrimLeft(text, " \t\r\n")
	if strings.HasPrefix(trimmed, "{") {
		first := firstLine(trimmed)
		switch {
		case ckptPatchRe().MatchString(first) && !strings.Contains(first, `"traj_data"`):
			return kindCheckpoints
		case ckptLineRe().MatchString(first) && strings.Contains(first, `"observation"`) &&
			!strings.Contains(first, `"history"`) && !trajListRe().MatchString(first):
			return kindCheckpoints
		case trajListRe().MatchString(text) && trajStepKeyRe().MatchString(text) && !foreignTrajRe().MatchString(text):
			return kindTraj
		case contextJSONRe().MatchString(text) && !strings.Contains(text, `"history"`):
			return kindContextJSON
		}
		return kindUnknown
	}
	// patch_context.txt: only File:/Lines: lines.
	seen := false
	lines := strings.Split(text, "\n")
	if len(head) >= 64<<10 && len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last line may be cut short
	}
	for _, l := range lines {
		l = python.StripSpace(l)
		if l == "" {
			continue
		}
		if !patchLineStart().MatchString(l) {
			return kindUnknown
		}
		seen = true
	}
	if seen {
		return kindPatchContext
	}
	return kindUnknown
}

// Sniff reports whether a file is a SWE-agent run, by its name or, for a
// renamed file, by its first bytes.
func Sniff(name string, head []byte) bool {
	if kindBySuffix(name) != kindUnknown {
		return true
	}
	return kindByContent(head) != kindUnknown
}

// ParseRuns reads one SWE-agent file, data, into a single run. The file
// kind is chosen by path's suffix as upstream does, then by content for a
// renamed file.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	if !utf8.Valid(data) {
		// Upstream opens these files as strict UTF-8 and fails.
		off := loader.InvalidUTF8(data)
		return nil, fmt.Errorf("%s: byte %d: invalid UTF-8 (expected a UTF-8 text file)", path, off)
	}
	k := kindBySuffix(path)
	renamed := k == kindUnknown
	if renamed {
		head := data
		if len(head) > 64<<10 {
			head = head[:64<<10]
		}
		k = kindByContent(head)
	}
	var run model.Run
	var err error
	switch k {
	case kindCheckpoints:
		run, err = loadCheckpoints(path, data)
	case kindContextJSON:
		run, err = loadContextJSON(path, data)
	case kindPatchContext:
		run, err = loadPatchContext(path, data)
	case kindTraj:
		run, err = loadTraj(path, data)
	default:
		return nil, fmt.Errorf("%s: not a SWE-agent file (expected .checkpoints.jsonl, .traj, .context.json or patch_context.txt content)", path)
	}
	if err != nil {
		return nil, err
	}
	run.Format = Name
	run.Path = path
	if run.Agent == "" {
		run.Agent = "swe-agent"
	}
	id := instanceID(path)
	if renamed && run.InstanceID != "" {
		id = run.InstanceID // the content named it; the file name is arbitrary
	}
	run.InstanceID = id
	run.Prediction.InstanceID = id
	return []model.Run{run}, nil
}

// instanceID follows upstream load_traj_file. str.replace removes every
// occurrence of the suffix, not only the trailing one, and so does this.
func instanceID(path string) string {
	base := python.Basename(path)
	switch kindBySuffix(path) {
	case kindCheckpoints:
		return strings.ReplaceAll(base, ".checkpoints.jsonl", "")
	case kindContextJSON:
		return strings.ReplaceAll(base, ".context.json", "")
	case kindPatchContext:
		if parent := python.Basename(python.Dirname(path)); parent != "" && strings.Contains(parent, "__") {
			return parent
		}
		return strings.ReplaceAll(base, ".patch_context.txt", "")
	case kindTraj:
		if parent := python.Basename(python.Dirname(path)); strings.HasPrefix(parent, "instance_") {
			return parent
		}
		return strings.ReplaceAll(base, ".traj", "")
	}
	// A renamed file: the name without its extension.
	if i := strings.LastIndex(base, "."); i > 0 {
		base = base[:i]
	}
	return strings.TrimSuffix(base, ".checkpoints")
}
