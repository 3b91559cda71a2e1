package model

import "testing"

func TestWho(t *testing.T) {
	for _, tc := range []struct{ agent, model, want string }{
		{"mini-swe-agent 1.17.3", "hosted_vllm/Qwen/Qwen3-Coder", "mini-swe-agent 1.17.3 · Qwen3-Coder"},
		{"", "openai/gpt-5", "gpt-5"},
		{"claude-code", "", "claude-code"},
		{"", "", ""},
		{"a", "plain", "a · plain"},
	} {
		if got := Who(tc.agent, tc.model); got != tc.want {
			t.Errorf("Who(%q, %q) = %q, want %q", tc.agent, tc.model, got, tc.want)
		}
	}
}
