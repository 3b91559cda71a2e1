package gold

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/rawjson"
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
func loadRow(set *Set, raw []byte, file string, line int, where string) {
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
	g, fatal := rowGold(raw, &warns)
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
func rowGold(raw []byte, warns *[]*rowError) (*model.Gold, *rowError) {
	row, err := object(raw)
	if err != nil {
		return nil, rerr("", "%v", err)
	}
	str := func(key string) string {
		v, ok := row[key]
		if !ok || bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return ""
		}
		s, err := rawjson.DecodeString(v)
		if err != nil {
			*warns = append(*warns, rerr(key, "%v; read as \"\"", err))
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
	var initItems, addItems [][]byte
	for _, c := range []struct {
		key string
		dst *[][]byte
	}{{"init_ctx", &initItems}, {"add_ctx", &addItems}} {
		v := row[c.key]
		if !truthy(v) {
			continue
		}
		els, err := rawjson.Elements(v)
		if err != nil {
			return nil, rerr(c.key, "%v", err)
		}
		*c.dst = els
	}
	initPath := "init_ctx"
	if len(initItems) == 0 && len(addItems) == 0 {
		gc, ok := row["gold_ctx"]
		gc = bytes.TrimSpace(gc)
		switch {
		case !ok || len(gc) == 0 || gc[0] == 'n':
		case gc[0] == '[':
			initItems, _ = rawjson.Elements(gc)
			initPath = "gold_ctx"
		case gc[0] == '"':
			s, _ := rawjson.DecodeString(gc)
			spans, _, werr, fatal := goldContextString(s, "gold_ctx")
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
			*warns = append(*warns, rerr("gold_ctx", "expected a list, found %s; read as empty gold (as upstream)", rawjson.KindOf(gc)))
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

// ctxItems converts ctx items, dropping those with a falsy file. Items must
// be valid JSON; a repeated key takes its last value, as in Python.
func ctxItems(items [][]byte, path string) ([]model.GoldSpan, *rowError) {
	out := make([]model.GoldSpan, 0, len(items))
	for i, item := range items {
		ipath := func() string { return path + "[" + strconv.Itoa(i) + "]" }
		it, err := rawjson.NewObjIter(item)
		if err != nil {
			return nil, rerr(ipath(), "%v", err)
		}
		var fileRaw, startRaw, endRaw []byte
		for {
			key, val, ok := it.Next()
			if !ok {
				break
			}
			switch {
			case rawjson.KeyIs(key, "file"):
				fileRaw = val
			case rawjson.KeyIs(key, "start_line"):
				startRaw = val
			case rawjson.KeyIs(key, "end_line"):
				endRaw = val
			}
		}
		if !truthy(fileRaw) {
			continue
		}
		file, err := rawjson.DecodeString(fileRaw)
		if err != nil {
			return nil, rerr(ipath()+".file", "%v", err)
		}
		sp := model.GoldSpan{File: file, Start: 1, End: 1}
		for _, k := range []struct {
			key string
			raw []byte
			dst *int
		}{{"start_line", startRaw, &sp.Start}, {"end_line", endRaw, &sp.End}} {
			if k.raw == nil {
				continue
			}
			n, err := rawjson.DecodeInt(k.raw)
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
	if !json.Valid([]byte(t)) {
		return nil, false, "neither JSON nor the text form (\"context0：\\nfile: …\"); read as empty gold (as upstream)", nil
	}
	if t[0] != '[' {
		return nil, false, fmt.Sprintf("expected a JSON list, found %s; read as empty gold (as upstream)", rawjson.KindOf([]byte(t))), nil
	}
	els, _ := rawjson.Elements([]byte(t))
	spans, fatal = ctxItems(els, path)
	return spans, false, "", fatal
}
