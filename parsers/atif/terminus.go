package atif

// Harbor's terminus-2 agent records no tool calls: it types commands into a
// terminal, and its replies (JSON, or XML with its xml parser) list them as
// keystrokes. Each typed command is read as a bash call.

import (
	"html"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// keystrokes reads terminus-2's reply: a JSON object (or XML) whose
// "commands" list holds {"keystrokes": "ls -la\n", "duration": 0.1}. Each
// command typed becomes a bash call; "analysis" and "plan" are the thought.
// A message that holds none is returned as it is.
func keystrokes(msg string) (calls []*jsontree.Value, thought string) {
	var typed []string
	if i, j := strings.IndexByte(msg, '{'), strings.LastIndexByte(msg, '}'); i >= 0 && j > i {
		if v, err := toolcall.Decode([]byte(msg[i : j+1])); err == nil && v.Is(jsontree.Object) {
			for _, c := range v.Get("commands").Items() {
				if k, ok := c.Get("keystrokes").AsString(); ok {
					typed = append(typed, k)
				}
			}
			if len(typed) > 0 {
				thought = strings.TrimSpace(v.Get("analysis").Text() + "\n\n" + v.Get("plan").Text())
			}
		}
	}
	if len(typed) == 0 {
		for _, m := range xmlKeystrokesRe().FindAllStringSubmatch(msg, -1) {
			typed = append(typed, html.UnescapeString(m[1]))
		}
	}
	for _, k := range typed {
		cmd := strings.TrimRight(k, "\n")
		if strings.TrimSpace(cmd) == "" {
			continue // a wait: nothing typed
		}
		calls = append(calls, &jsontree.Value{Kind: jsontree.Object, Obj: []jsontree.Member{
			{Key: "function_name", Val: jsontree.NewString("bash")},
			{Key: "arguments", Val: jsontree.Wrap("command", jsontree.NewString(cmd))},
		}})
	}
	if len(calls) == 0 {
		return nil, msg
	}
	if thought == "" {
		thought = msg
	}
	return calls, thought
}

var xmlKeystrokesRe = lazyre.New(`(?s)<keystrokes[^>]*>(.*?)</keystrokes>`)
