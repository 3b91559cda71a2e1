// Package genai reads the content parts of Google's generative-AI API, as
// Gemini CLI and its fork Qwen Code record them: text, thoughts, function
// calls and function responses, and the usage figures.
package genai

import (
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Call is a functionCall part.
type Call struct {
	ID, Name string
	Args     *jsontree.Value
}

// Parts reads a content: a string, one part, or a list of parts. It
// returns the text (thoughts apart), the thoughts and the function calls.
func Parts(v *jsontree.Value) (text, thought string, calls []Call) {
	if s, ok := v.AsString(); ok {
		return s, "", nil
	}
	items := v.Items()
	if v.Is(jsontree.Object) {
		items = []*jsontree.Value{v}
	}
	var texts, thoughts []string
	for _, p := range items {
		if s, ok := p.AsString(); ok {
			texts = append(texts, s)
			continue
		}
		if fc := p.Get("functionCall").Object(); fc != nil {
			calls = append(calls, Call{ID: fc.Get("id").Text(), Name: fc.Get("name").Text(), Args: fc.Get("args").Object()})
			continue
		}
		if t, ok := p.Get("text").AsString(); ok && t != "" {
			if p.Get("thought").True() {
				thoughts = append(thoughts, t)
			} else {
				texts = append(texts, t)
			}
		}
	}
	return strings.Join(texts, "\n"), strings.Join(thoughts, "\n"), calls
}

// Response is a functionResponse part's result: the text the model was
// given (response.output, else response.error, else the whole response),
// and whether it was an error.
func Response(v *jsontree.Value) (id, name, out string, isError bool) {
	items := v.Items()
	if v.Is(jsontree.Object) {
		items = []*jsontree.Value{v}
	}
	var texts []string
	for _, p := range items {
		fr := p.Get("functionResponse").Object()
		if fr == nil {
			if t, ok := p.Get("text").AsString(); ok {
				texts = append(texts, t)
			}
			continue
		}
		if id == "" {
			id, name = fr.Get("id").Text(), fr.Get("name").Text()
		}
		r := fr.Get("response")
		switch {
		case !r.Get("output").IsNull():
			texts = append(texts, toolcall.Text(r.Get("output")))
		case !r.Get("error").IsNull():
			texts = append(texts, toolcall.Text(r.Get("error")))
			isError = true
		case !r.Get("content").IsNull():
			texts = append(texts, toolcall.Text(r.Get("content")))
		default:
			texts = append(texts, r.Compact())
		}
	}
	return id, name, strings.Join(texts, "\n"), isError
}

// Usage reads usage figures: Gemini CLI's tokens {input, output, cached,
// thoughts, tool} or the API's usageMetadata {promptTokenCount,
// candidatesTokenCount, cachedContentTokenCount, thoughtsTokenCount,
// toolUsePromptTokenCount}, as Gemini counts its total
// (totalTokenCount = prompt + candidates + thoughts + tool-use prompt):
// the prompt count includes the cached tokens (cache read), thoughts count
// as output, the tool-use prompt as input.
func Usage(v *jsontree.Value) model.Usage {
	if v.IsNull() {
		return model.Usage{}
	}
	in, ok := v.Get("input").AnyInt()
	if !ok {
		in, _ = v.Get("promptTokenCount").AnyInt()
	}
	out, ok := v.Get("output").AnyInt()
	if !ok {
		out, _ = v.Get("candidatesTokenCount").AnyInt()
	}
	th, ok := v.Get("thoughts").AnyInt()
	if !ok {
		th, _ = v.Get("thoughtsTokenCount").AnyInt()
	}
	cached, ok := v.Get("cached").AnyInt()
	if !ok {
		cached, _ = v.Get("cachedContentTokenCount").AnyInt()
	}
	tool, ok := v.Get("tool").AnyInt()
	if !ok {
		tool, _ = v.Get("toolUsePromptTokenCount").AnyInt()
	}
	cached = min(max(cached, 0), max(in, 0))
	return model.NewUsage(max(in-cached, 0)+max(tool, 0), max(out, 0)+max(th, 0), cached, 0)
}
