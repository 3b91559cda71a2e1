package toolcall

import (
	"strings"

	"github.com/trajscope/trajscope/model"
)

// editorCall handles str_replace_editor-style tools: "view" reads (the
// numbered output is the truth, else view_range), the rest edit.
func editorCall(a *model.Action, c Call) {
	in := c.Input
	file := in.First("path", "file_path")
	switch in.Get("command").Text() {
	case "view":
		a.Category = model.CategoryRead
		text, _ := StripMetadata(c.Output)
		if strings.Contains(text, "files and directories up to") {
			a.Category = model.CategorySearch // a directory listing
			return
		}
		if file == "" || c.IsError {
			return
		}
		if first, last, ok := numberedRun(text); ok {
			a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: max(first, 1), End: max(last, 1)}}
			return
		}
		if c.HasOutput && strings.TrimSpace(text) != "" {
			return // an error or a message: no file lines shown
		}
		vr := in.Get("view_range").Items()
		if len(vr) == 2 {
			s, ok1 := vr[0].AnyInt()
			e, ok2 := vr[1].AnyInt()
			switch {
			case ok1 && ok2 && s >= 1 && e == -1:
				a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadFrom, Start: s}}
			case ok1 && ok2 && s >= 1 && e >= s:
				a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}
			}
			return
		}
		a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadWhole}}
	case "create", "str_replace", "insert", "undo_edit", "write":
		a.Category = model.CategoryEdit
		if file != "" {
			a.Edits = []string{file}
		}
	default:
		a.Category = model.CategoryOther
	}
}
