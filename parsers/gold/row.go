package gold

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// rowError is a problem at a JSON path inside one row; skip says whether the
// row is lost.
type rowError struct {
	path string
	msg  string
}

func rerr(path, format string, args ...any) *rowError {
	return &rowError{path: path, msg: fmt.Sprintf(format, args...)}
}

// loadRow converts one row object and adds it to set, recording problems at
// file:line. where prefixes JSON paths (the row's place in a JSON list).
func loadRow(set *Set, row *jsontree.Value, file string, line int, where string) {
	join := func(p string) string {
		switch {
		case where == "":
			return p
		case p == "":
			return where
		}
		return where + "." + p
	}
	var warns []*rowError
	g, fatal := rowGold(row, &warns)
	for _, w := range warns {
		set.problem(&Problem{File: file, Line: line, Where: join(w.path), Msg: w.msg})
	}
	if fatal != nil {
		set.problem(&Problem{File: file, Line: line, Where: join(fatal.path), Msg: fatal.msg, Skipped: true})
		return
	}
	set.add(g, file, line, where)
}

// rowGold is upstream's Gold(data) for a JSON row. Non-fatal problems (a
// field of the wrong type that scoring does not need) go to warns.
func rowGold(row *jsontree.Value, warns *[]*rowError) (*model.Gold, *rowError) {
	if !row.Is(jsontree.Object) {
		return nil, rerr("", "expected an object, found %s", row.Describe())
	}
	if fc, ok := row.Lookup("file_changes"); ok && fc.Is(jsontree.Array) {
		return locAgentGold(row, fc)
	}
	str := func(key string) string {
		v := row.Get(key)
		if v.IsNull() {
			return ""
		}
		s, ok := v.AsString()
		if !ok {
			*warns = append(*warns, rerr(key, "expected a string, found %s; read as \"\"", v.Describe()))
			return ""
		}
		return s
	}
	g := &model.Gold{
		InstID:         str("inst_id"),
		OriginalInstID: str("original_inst_id"),
		RepoURL:        str("repo_url"),
		Commit:         str("commit"),
		Repo:           str("repo"),
		Language:       str("language"),
		Source:         str("source"),
		Patch:          str("patch"),
		Task:           str("problem_statement"),
	}
	g.ID = g.OriginalInstID
	if g.ID == "" {
		g.ID = g.InstID
	}
	if g.ID == "" {
		return nil, rerr("", `no "inst_id" or "original_inst_id"`)
	}

	// init = init_ctx or [], add = add_ctx or []; gold_ctx only when both
	// are empty. Items with a falsy file count here, so test before dropping.
	var initItems, addItems []*jsontree.Value
	for _, c := range []struct {
		key string
		dst *[]*jsontree.Value
	}{{"init_ctx", &initItems}, {"add_ctx", &addItems}} {
		v := row.Get(c.key)
		if !v.Truthy() {
			continue
		}
		if !v.Is(jsontree.Array) {
			return nil, rerr(c.key, "expected a list, found %s", v.Describe())
		}
		*c.dst = v.Arr
	}
	initPath := "init_ctx"
	if len(initItems) == 0 && len(addItems) == 0 {
		gc := row.Get("gold_ctx")
		switch {
		case gc.IsNull():
		case gc.Is(jsontree.Array):
			initItems = gc.Arr
			initPath = "gold_ctx"
		case gc.Is(jsontree.String):
			spans, _, werr, fatal := goldContextString(gc.Str, "gold_ctx")
			if fatal != nil {
				return nil, fatal
			}
			if werr != "" {
				*warns = append(*warns, rerr("gold_ctx", "%s", werr))
				return g, nil
			}
			// Upstream ignores a gold_ctx that is not a list, so whatever
			// the string held, upstream scored this row with empty gold.
			g.Init, g.TextForm = spans, len(spans) > 0
			return g, nil
		default:
			*warns = append(*warns, rerr("gold_ctx", "expected a list, found %s; read as empty gold (as upstream)", gc.Describe()))
		}
	}
	var rerrp *rowError
	if g.Init, rerrp = ctxItems(initItems, initPath); rerrp != nil {
		return nil, rerrp
	}
	if g.Add, rerrp = ctxItems(addItems, "add_ctx"); rerrp != nil {
		return nil, rerrp
	}
	return g, nil
}

// ctxItems converts ctx items, dropping those with a falsy file; a
// repeated key takes its last value, as in Python.
func ctxItems(items []*jsontree.Value, path string) ([]model.GoldSpan, *rowError) {
	out := make([]model.GoldSpan, 0, len(items))
	for i, item := range items {
		ipath := func() string { return path + "[" + strconv.Itoa(i) + "]" }
		if !item.Is(jsontree.Object) {
			return nil, rerr(ipath(), "expected an object, found %s", item.Describe())
		}
		fileV := item.Get("file")
		if !fileV.Truthy() {
			continue
		}
		file, ok := fileV.AsString()
		if !ok {
			return nil, rerr(ipath()+".file", "expected a string, found %s", fileV.Describe())
		}
		sp := model.GoldSpan{File: file, Start: 1, End: 1}
		for _, k := range []struct {
			key string
			dst *int
		}{{"start_line", &sp.Start}, {"end_line", &sp.End}} {
			v, ok := item.Lookup(k.key)
			if !ok {
				continue
			}
			n, err := v.Integer()
			if err != nil {
				return nil, rerr(ipath()+"."+k.key, "%v", err)
			}
			*k.dst = n
		}
		out = append(out, sp)
	}
	if len(out) == 0 {
		return nil, nil // as before sizing: no spans is nil
	}
	return out, nil
}

// goldContextString reads a gold_context given as a string: JSON (a list of
// items) or the text form. warn is set when the text was neither; the spans
// are then empty, which is what upstream's failed json.loads gives. fatal is
// set when a JSON item is unusable (upstream crashes on the row).
func goldContextString(s, path string) (spans []model.GoldSpan, textForm bool, warn string, fatal *rowError) {
	t := strings.TrimSpace(s)
	if t == "" {
		return nil, false, "", nil
	}
	if looksLikeTextForm(s) {
		entries, err := parseTextForm(s)
		if err != nil {
			return nil, false, "text form: " + err.Error() + "; read as empty gold (as upstream)", nil
		}
		return textSpans(entries), true, "", nil
	}
	// Only these members are read; the rest (each span's code, "content")
	// is checked as JSON but not built.
	v, err := jsontree.ParseKeeping([]byte(t), "file", "start_line", "end_line")
	if err != nil {
		return nil, false, "neither JSON nor the text form (\"context0：\\nfile: …\"); read as empty gold (as upstream)", nil
	}
	if !v.Is(jsontree.Array) {
		return nil, false, fmt.Sprintf("expected a JSON list, found %s; read as empty gold (as upstream)", v.Describe()), nil
	}
	spans, fatal = ctxItems(v.Arr, path)
	return spans, false, "", fatal
}

// locAgentGold reads a LocAgent / Loc-Bench localisation row
// (gt_location.jsonl: instance_id, repo, base_commit, file_changes[{file,
// changes{edited_entities, edited_modules}}]). It names files and the
// entities edited in them ("path:Class.method"), no lines: it is file- and
// symbol-level gold, and the span and line figures have nothing to measure.
func locAgentGold(row, changes *jsontree.Value) (*model.Gold, *rowError) {
	g := &model.Gold{
		InstID: row.Get("instance_id").Text(), Repo: row.Get("repo").Text(),
		Commit: row.Get("base_commit").Text(), Source: "locagent", Task: row.Get("problem_statement").Text(),
	}
	g.ID = g.InstID
	if g.ID == "" {
		return nil, rerr("instance_id", "a LocAgent row needs an instance_id")
	}
	for i, c := range changes.Items() {
		f := c.Get("file").Text()
		if f == "" {
			return nil, rerr(fmt.Sprintf("file_changes[%d].file", i), "expected a file path")
		}
		if !slices.Contains(g.Files, f) {
			g.Files = append(g.Files, f)
		}
		var names []string
		for _, e := range c.Path("changes", "edited_entities").Items() {
			// "path:Class.method": the entity is named within its file.
			if name, ok := strings.CutPrefix(e.Text(), f+":"); ok && name != "" && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			g.Symbols = append(g.Symbols, model.FileSymbols{File: f, Symbols: names})
		}
	}
	return g, nil
}
