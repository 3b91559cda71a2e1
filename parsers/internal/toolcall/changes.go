package toolcall

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/shell"
)

// editChanges reads the edits an edit tool's call records, by the argument
// names each agent's tool uses: Claude Code's Edit (old_string,
// new_string, replace_all), MultiEdit (edits), Write (content); Gemini
// CLI's replace and write_file; OpenCode's edit (oldString, newString).
func editChanges(file string, in *jsontree.Value) []model.Change {
	if file == "" {
		return nil
	}
	if edits := in.Get("edits"); edits.Is(jsontree.Array) {
		var out []model.Change
		for _, e := range edits.Items() {
			out = append(out, editChanges(file, e)...)
		}
		return out
	}
	if content := firstOf(in, "content", "file_text", "text"); content != nil && content.Is(jsontree.String) {
		return []model.Change{{File: file, Kind: model.ChangeWhole, New: shell.Clip(content.Str)}}
	}
	old, okOld := in.Get("old_string").AsString()
	if !okOld {
		old, okOld = in.Get("oldString").AsString()
	}
	nw, okNew := in.Get("new_string").AsString()
	if !okNew {
		nw, okNew = in.Get("newString").AsString()
	}
	if !okOld || !okNew {
		return nil
	}
	return []model.Change{{File: file, Kind: model.ChangeReplace, Old: shell.Clip(old), New: shell.Clip(nw)}}
}

// EditorChanges reads a str_replace_editor call's edit: str_replace's
// old_str and new_str, create's file_text, insert's insert_line and
// new_str.
func EditorChanges(file string, in *jsontree.Value) []model.Change {
	if file == "" {
		return nil
	}
	switch in.Get("command").Text() {
	case "str_replace":
		old, ok := in.Get("old_str").AsString()
		if !ok {
			return nil
		}
		return []model.Change{{File: file, Kind: model.ChangeReplace, Old: shell.Clip(old), New: shell.Clip(in.Get("new_str").Text())}}
	case "create", "write":
		return []model.Change{{File: file, Kind: model.ChangeWhole, New: shell.Clip(in.First("file_text", "content"))}}
	case "insert":
		line, ok := in.Get("insert_line").AnyInt()
		if !ok || line < 0 {
			return nil
		}
		return []model.Change{{File: file, Kind: model.ChangeInsert, Line: line, New: shell.Clip(in.Get("new_str").Text())}}
	}
	return nil
}
