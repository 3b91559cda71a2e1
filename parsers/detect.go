package parsers

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
)

// headSize is how much of a file content detection reads.
const headSize = 64 << 10

// lfsPointer is the first line of a Git LFS pointer file.
const lfsPointer = "version https://git-lfs.github.com/spec/v1"

// Detect names the format of the file (or OpenHands llm_completions
// directory) at path. The reference evaluator's file-name rules (the
// formats' suffixes) come first; any other name is decided by content, the
// formats tried in table order. A file carrying another format's suffix is
// named for the format that refines it when the content says so (a .traj.json
// holding tool calls is mini-swe-agent v2).
func Detect(path string) (string, error) {
	st, err := inputfile.Stat(path)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		if f := dirFormat(path); f != nil {
			return f.name, nil
		}
		return "", fmt.Errorf("%s: is a directory (not an OpenHands llm_completions directory)", path)
	}
	head, err := readHead(path)
	if err != nil {
		return "", err
	}
	if isLFSPointer(head) {
		return "", fmt.Errorf("%s: is a Git LFS pointer, not the file: run `git lfs pull --include '%s'`", path, path)
	}
	if name := bySuffix(path, head); name != "" {
		return name, nil
	}
	if name := detectContent(filepath.Base(path), head); name != "" {
		return name, nil
	}
	return "", fmt.Errorf("%s: unknown format: tried the file-name rules and the content of %s", path, strings.Join(Formats(), ", "))
}

// bySuffix applies the reference evaluator's file-name rules, refined by
// content where a format shares another's suffix.
func bySuffix(path string, head []byte) string {
	base := filepath.Base(path)
	owner := suffixOwner(base)
	if owner == nil {
		return ""
	}
	if f := refinement(owner, base, head); f != nil {
		return f.name
	}
	return owner.name
}

// detectContent tries every content sniffer on a name the suffix rules do
// not know.
func detectContent(base string, head []byte) string {
	for _, f := range formats {
		if f.sniff(base, head) {
			return f.name
		}
	}
	return ""
}

func readHead(path string) ([]byte, error) {
	return inputfile.Head(path, headSize)
}

// isLFSPointer checks the first line as the reference does (stripped).
func isLFSPointer(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	return string(bytes.TrimSpace(line)) == lfsPointer
}

// sniffUnified recognises unified prediction records: a JSON object (or a
// list of them, or JSON lines) with traj_data, or with an instance id and a
// model_patch and none of the trajectory formats' keys.
func sniffUnified(_ string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return false
	}
	if bytes.Contains(head, []byte(`"traj_data"`)) {
		return true
	}
	for _, k := range []string{`"messages"`, `"history"`, `"trajectory"`, `"schema_version"`, `"found_files"`} {
		if bytes.Contains(head, []byte(k)) {
			return false
		}
	}
	return (bytes.Contains(head, []byte(`"instance_id"`)) || bytes.Contains(head, []byte(`"original_inst_id"`))) &&
		bytes.Contains(head, []byte(`"model_patch"`))
}
