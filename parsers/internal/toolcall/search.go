package toolcall

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
)

var (
	foundHeaderRe = lazyre.New(`^Found \d+ (?:files?|lines?|matches|total occurrences?)`)
	countSuffixRe = lazyre.New(`:\d+$`)
	grepPathLine  = lazyre.New(`^(.+?):(\d{1,9})[:-]`)
	grepBareLine  = lazyre.New(`^(\d{1,9})[:-]`)
	// jsonPathRe compiles on first use: its bounded repetition expands to a
	// thousand copies, a few milliseconds every process would pay at start.
	jsonPathRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"path"\s*:\s*"((?:[^"\\]|\\.){1,1000})"`)
	})
)

// grepContent reports a Grep call in content mode, which prints matching
// lines rather than file names or counts.
func grepContent(c Call) bool {
	return c.Input.Get("output_mode").Text() == "content" || c.Meta.Get("mode").Text() == "content"
}

// grepHits reads a Grep-style result as search hits: file lists
// (files_with_matches, the default), "path:N:text" content lines, and
// "path:N" counts.
func grepHits(c Call) []model.SearchHit {
	var hits []model.SearchHit
	seen := map[model.SearchHit]bool{}
	add := func(h model.SearchHit) {
		if h.File != "" && !seen[h] {
			seen[h] = true
			hits = append(hits, h)
		}
	}
	for _, f := range c.Meta.Get("filenames").Items() {
		add(model.SearchHit{File: f.Text()})
	}
	if c.IsError {
		return hits
	}
	target := c.Input.First("path", "file_path", "dir_path")
	text, _ := StripMetadata(c.Output)
	content := grepContent(c)
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || (i == 0 && foundHeaderRe().MatchString(line)) {
			continue
		}
		if m := grepPathLine().FindStringSubmatch(line); m != nil && looksLikePath(m[1]) {
			n, _ := strconv.Atoi(m[2])
			add(model.SearchHit{File: m[1], Line: n})
			continue
		}
		if m := grepBareLine().FindStringSubmatch(line); m != nil && content && looksLikeFile(target) {
			n, _ := strconv.Atoi(m[1])
			add(model.SearchHit{File: target, Line: n})
			continue
		}
		if content {
			if p, _, ok := strings.Cut(line, ":"); ok && looksLikePath(p) {
				add(model.SearchHit{File: p})
			}
			continue
		}
		p := countSuffixRe().ReplaceAllString(strings.TrimSpace(line), "")
		if looksLikePath(p) {
			add(model.SearchHit{File: p})
		}
	}
	return hits
}

// listHits reads a Glob-style result: one path per line.
func listHits(c Call) []model.SearchHit {
	var hits []model.SearchHit
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			hits = append(hits, model.SearchHit{File: p})
		}
	}
	for _, f := range c.Meta.Get("filenames").Items() {
		add(f.Text())
	}
	if c.IsError {
		return hits
	}
	text, _ := StripMetadata(c.Output)
	for _, line := range strings.Split(text, "\n") {
		p := strings.TrimSpace(line)
		if looksLikePath(p) {
			add(p)
		}
	}
	return hits
}

// jsonPathHits collects the "path" members of an MCP tool's JSON result,
// leaving out directories.
func jsonPathHits(out string) []model.SearchHit {
	var hits []model.SearchHit
	seen := map[string]bool{}
	for _, m := range jsonPathRe().FindAllStringSubmatch(out, -1) {
		p, err := strconv.Unquote(`"` + m[1] + `"`)
		if err != nil {
			p = m[1]
		}
		if p == "" || strings.HasSuffix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		hits = append(hits, model.SearchHit{File: p})
	}
	return hits
}

// looksLikePath accepts a bare path as tools print it, rejecting prose
// ("No files found", "(Results are truncated …)").
func looksLikePath(s string) bool {
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, " \t<>\"'|*?()") || strings.HasSuffix(s, ":") {
		return false
	}
	return strings.Contains(s, "/") || strings.Contains(s, ".")
}

// looksLikeFile says whether a search's target names a file (not a
// directory), so bare "N:text" lines belong to it.
func looksLikeFile(p string) bool {
	if p == "" || strings.HasSuffix(p, "/") {
		return false
	}
	base := p[strings.LastIndex(p, "/")+1:]
	return strings.Contains(base, ".") && base != "." && base != ".."
}

// mcpCall reads a call of an MCP server's tool (a retriever's: code search,
// a file reader) by what its result shows, since its name says nothing
// trajscope can rely on: numbered lines of the file its arguments name are
// a read of those lines; "path:N:" lines, paths one per line, or the
// "path" members of a JSON result are search hits; anything else is an
// action of its own kind (other).
func mcpCall(a *model.Action, c Call) {
	a.Category = model.CategoryOther
	if c.IsError || !c.HasOutput {
		return
	}
	text, _ := StripMetadata(c.Output)
	file := c.Input.First("path", "file_path", "filePath", "file", "filename", "relative_path")
	if file != "" {
		if first, last, ok := numberedRun(text); ok {
			a.Category = model.CategoryRead
			a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: first, End: last}}
			return
		}
	}
	hits := jsonPathHits(text)
	if len(hits) == 0 {
		hits = grepHits(Call{Input: c.Input, Output: text})
	}
	if len(hits) == 0 {
		hits = listHits(Call{Output: text})
	}
	if len(hits) > 0 {
		a.Category = model.CategorySearch
		a.Searches = hits
	}
}
