package parsers

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// runTokens is every token a run spent: its actions' and its rest.
func runTokens(run *model.Run) model.Usage {
	u := run.RestUsage
	for i := range run.Actions {
		u = u.Plus(run.Actions[i].Usage)
	}
	return u
}

func total(u model.Usage) int {
	return int(u.InputTokens) + int(u.OutputTokens) + int(u.CacheRead) + int(u.CacheWrite)
}

// Each agent's run spends what the agent itself records: its own total
// (input including cached + output including thinking; for Claude Code
// input + output + cache creation + cache read), on fixtures in the shape
// each agent writes (the rule each peer's tests hold: a final answer after
// the last call counts, a run without a call counts, Codex's running total
// stands in for a call's count of zero, Goose's accumulated usage), and on
// the real sessions in ../shared where they are.
func TestTokensAsEachAgentCounts(t *testing.T) {
	dir := t.TempDir()
	put := func(name, text string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	shared := func(rel string) string { return filepath.Join("../../shared/data/formats", rel) }
	cases := []struct {
		name, path string
		total      int
		split      *model.Usage // input (not cached), output, cache read, cache write
	}{
		{"gemini cli: every message, thoughts as output, tool-use prompt as input, cached as cache read",
			put("gemini/session-2026-05-01T00-00-g1.json", `{"sessionId": "g1", "projectHash": "0f0f", "startTime": "2026-05-01T00:00:00Z", "messages": [
 {"id": "u", "type": "user", "timestamp": "2026-05-01T00:00:00Z", "content": "fix it"},
 {"id": "a", "type": "gemini", "timestamp": "2026-05-01T00:00:01Z", "model": "gemini-x", "content": "",
  "toolCalls": [{"id": "c1", "name": "read_file", "args": {"absolute_path": "/w/a.py"}, "status": "success", "result": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "x = 1"}}}]}],
  "tokens": {"input": 100, "output": 10, "cached": 40, "thoughts": 5, "tool": 3, "total": 118}},
 {"id": "b", "type": "gemini", "timestamp": "2026-05-01T00:00:02Z", "content": "done", "tokens": {"input": 200, "output": 20, "cached": 150, "thoughts": 0, "tool": 0, "total": 220}}]}`),
			118 + 220, &model.Usage{InputTokens: 60 + 3 + 50, OutputTokens: 15 + 20, CacheRead: 190}},
		{"qwen code: every assistant line, the one after the last call too",
			put("q.jsonl", `{"uuid": "u1", "sessionId": "q", "timestamp": "2026-08-01T00:00:00Z", "type": "user", "message": {"role": "user", "parts": [{"text": "why"}]}}
{"uuid": "a1", "sessionId": "q", "timestamp": "2026-08-01T00:00:01Z", "type": "assistant", "model": "qwen-x", "message": {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "read_file", "args": {"absolute_path": "/r/p.py"}}}]}, "usageMetadata": {"promptTokenCount": 500, "candidatesTokenCount": 20, "cachedContentTokenCount": 100, "thoughtsTokenCount": 4, "totalTokenCount": 524}}
{"uuid": "t1", "sessionId": "q", "timestamp": "2026-08-01T00:00:02Z", "type": "tool_result", "message": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "x"}}}]}}
{"uuid": "a2", "sessionId": "q", "timestamp": "2026-08-01T00:00:03Z", "type": "assistant", "model": "qwen-x", "message": {"role": "model", "parts": [{"text": "it is fine"}]}, "usageMetadata": {"promptTokenCount": 600, "candidatesTokenCount": 30, "cachedContentTokenCount": 500, "thoughtsTokenCount": 0, "totalTokenCount": 630}}
`),
			524 + 630, nil},
		{"codex: a count of zero is the running total's move; a rollout without a call counts",
			put("codex/rollout-2026-06-01T00-00-00-c1.jsonl", `{"timestamp": "2026-06-01T00:00:00Z", "type": "session_meta", "payload": {"id": "c1", "cwd": "/w"}}
{"timestamp": "2026-06-01T00:00:01Z", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "nothing to run"}]}}
{"timestamp": "2026-06-01T00:00:02Z", "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 1000, "cached_input_tokens": 600, "output_tokens": 50, "total_tokens": 1050}, "last_token_usage": {"input_tokens": 1000, "cached_input_tokens": 600, "output_tokens": 50, "total_tokens": 1050}}}}
{"timestamp": "2026-06-01T00:00:03Z", "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 1000, "cached_input_tokens": 600, "output_tokens": 50, "total_tokens": 1050}, "last_token_usage": {"input_tokens": 1000, "cached_input_tokens": 600, "output_tokens": 50, "total_tokens": 1050}}}}
{"timestamp": "2026-06-01T00:00:04Z", "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 2500, "cached_input_tokens": 1500, "output_tokens": 80, "total_tokens": 2580}, "last_token_usage": {"input_tokens": 0, "cached_input_tokens": 0, "output_tokens": 0, "total_tokens": 0}}}}
{"timestamp": "2026-06-01T00:00:05Z", "type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage": {"input_tokens": 3000, "cached_input_tokens": 1800, "output_tokens": 100, "total_tokens": 3100}}}}
`),
			3100, &model.Usage{InputTokens: 1200, OutputTokens: 100, CacheRead: 1800}},
		{"goose: the session's accumulated usage, input including the cache",
			put("goose/export.json", `{"id": "g", "working_dir": "/w", "accumulated_usage": {"input_tokens": 1000, "output_tokens": 50, "total_tokens": 1050, "cache_read_input_tokens": 700, "cache_write_input_tokens": 200}, "usage": {"input_tokens": 10, "output_tokens": 1, "total_tokens": 11},
 "conversation": [{"id": "m1", "role": "user", "created": 1767225600, "content": [{"type": "text", "text": "hi"}]}], "message_count": 1}`),
			1050, &model.Usage{InputTokens: 100, OutputTokens: 50, CacheRead: 700, CacheWrite: 200}},
		// The real sessions: each agent's own figure (the sum of a Gemini
		// chat's message totals, Qwen Code's totalTokenCount, the
		// rollout's last total_token_usage, Goose's total_tokens).
		{"real gemini cli session", shared("gemini-cli/entireio-cli__ckpt-ab2b9748b105-0.full.jsonl"), 133187, nil},
		{"real qwen code session", shared("qwen-code/real_session_v0_21_14.jsonl"), 2580, nil},
		{"real codex rollout", shared("codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl"), 1121566, nil},
		{"real goose export", shared("goose/real_export_v1_46_0.json"), 125005, nil},
	}
	for _, c := range cases {
		if _, err := os.Stat(c.path); err != nil {
			continue // ../shared absent
		}
		runs, err := Load(c.path, "")
		if err != nil || len(runs) != 1 {
			t.Errorf("%s: %d runs, %v", c.name, len(runs), err)
			continue
		}
		u := runTokens(&runs[0])
		if got := total(u); got != c.total {
			t.Errorf("%s: %d tokens %+v, want %d", c.name, got, u, c.total)
		}
		if c.split != nil && u != *c.split {
			t.Errorf("%s: split %+v, want %+v", c.name, u, *c.split)
		}
	}
}
