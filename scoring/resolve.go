package scoring

import (
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
)

// Resolve maps a path predicted by an agent to a repository-relative file
// path, or "" when no suffix of it names a regular file in t. It mirrors the
// ContextBench evaluator's _resolve_repo_relpath:
//
//  1. strip whitespace (Python str.strip), then the quote characters ' and ",
//     then replace \ with /;
//  2. remove leading "./" repeatedly, then all leading "/";
//  3. split on "/" dropping empty parts;
//  4. return the first suffix parts[i:] that is a regular file inside the tree.
//
// Like upstream, the returned candidate is the suffix as written: the file
// check strips it again (upstream _is_repo_file), so a quoted path with inner
// padding such as "' a.py'" resolves to " a.py", and "/./a.py" to "./a.py".
//
// Deliberate difference: a candidate with a ".." component is rejected even
// when it would stay inside the tree (upstream accepted it if its realpath
// did), so a returned path can never climb out of the root.
func Resolve(t model.Tree, p string) string {
	if t == nil || p == "" {
		return ""
	}
	s := strings.Trim(python.StripSpace(p), `'"`)
	s = strings.ReplaceAll(s, `\`, "/")
	if s == "" {
		return ""
	}
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	s = strings.TrimLeft(s, "/")
	if s == "" {
		return ""
	}
	var parts []string
	for _, x := range strings.Split(s, "/") {
		if x != "" {
			parts = append(parts, x)
		}
	}
	for i := range parts {
		cand := strings.Join(parts[i:], "/")
		if isRepoFile(t, cand) {
			return cand
		}
	}
	return ""
}

// isRepoFile mirrors upstream _is_repo_file: the candidate is stripped again,
// absolute paths are refused, and the file must exist inside the tree.
func isRepoFile(t model.Tree, cand string) bool {
	c := python.StripSpace(cand)
	if c == "" || strings.HasPrefix(c, "/") || strings.IndexByte(c, 0) >= 0 {
		return false
	}
	if hasDotDot(c) {
		return false
	}
	return t.IsFile(c)
}

// hasDotDot reports whether a slash path has a ".." component.
func hasDotDot(p string) bool {
	for _, x := range strings.Split(p, "/") {
		if x == ".." {
			return true
		}
	}
	return false
}
