package model

import "path"

// Who names the agent and model of a run as every view shows them:
// "mini-swe-agent 1.17.3 · Qwen3-Coder". The model loses its provider path
// ("hosted_vllm/Qwen/Qwen3-Coder" → "Qwen3-Coder"), which says little and
// costs a third of a narrow header. Either part may be empty.
func Who(agent, model string) string {
	if model == "" {
		return agent
	}
	if agent == "" {
		return path.Base(model)
	}
	return agent + " · " + path.Base(model)
}
