package toolcall

import (
	"math"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// AddUsage adds u to a's usage.
func AddUsage(a *model.Action, u model.Usage) { a.Usage = SumUsage(a.Usage, u) }

// SumUsage adds two usages field by field.
func SumUsage(a, b model.Usage) model.Usage { return a.Plus(b) }

// UsageZero reports whether u records nothing.
func UsageZero(u model.Usage) bool { return u == model.Usage{} }

// AnthropicUsage reads an Anthropic "usage" object. InputTokens is the
// uncached input, so Input+CacheRead+CacheWrite is what the model was sent.
func AnthropicUsage(v *jsontree.Value) model.Usage {
	m := v.Object()
	in, _ := m.Get("input_tokens").AnyInt()
	out, _ := m.Get("output_tokens").AnyInt()
	read, _ := m.Get("cache_read_input_tokens").AnyInt()
	write, _ := m.Get("cache_creation_input_tokens").AnyInt()
	return model.NewUsage(in, out, read, write)
}

// OpenAIUsage reads an OpenAI-style usage object (chat completions or the
// Responses API). Prompt tokens there include the cached ones, which are
// moved to CacheRead so that InputTokens means uncached input everywhere.
func OpenAIUsage(v *jsontree.Value) model.Usage {
	m := v.Object()
	prompt, ok := m.Get("prompt_tokens").AnyInt()
	if !ok {
		prompt, _ = m.Get("input_tokens").AnyInt()
	}
	output, ok := m.Get("completion_tokens").AnyInt()
	if !ok {
		output, _ = m.Get("output_tokens").AnyInt()
	}
	cached, ok := m.Path("prompt_tokens_details", "cached_tokens").AnyInt()
	if !ok {
		if cached, ok = m.Path("input_tokens_details", "cached_tokens").AnyInt(); !ok {
			cached, _ = m.Get("cache_read_input_tokens").AnyInt()
		}
	}
	write, _ := m.Get("cache_creation_input_tokens").AnyInt()
	if w, ok := m.Path("prompt_tokens_details", "cache_write_tokens").AnyInt(); ok && write == 0 {
		write = w
	}
	input := max(prompt-cached-write, 0)
	if prompt < cached+write {
		// A provider that reports prompt tokens without the cached part.
		input = prompt
	}
	return model.NewUsage(input, output, cached, write)
}

// Cost reads a run's recorded cost in US dollars: a positive, finite JSON
// number, else 0 (not recorded).
func Cost(v *jsontree.Value) float64 {
	if f, ok := v.Float(); ok && f > 0 && !math.IsInf(f, 1) {
		return f
	}
	return 0
}
