// Package task finds the task statement (the issue text) in the first
// message an agent was given: the harnesses wrap it in their own prompt
// (ContextBench's and mini-swe-agent's <pr_description>, SWE-agent's
// <issue_description>, OpenHands' <issue_description> after the
// <uploaded_files> preamble), and the explorer shows the issue itself.
package task

import (
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
)

// wrapperRe matches the tags harnesses put the issue in; the first that
// holds text wins.
var wrapperRe = lazyre.New(`(?s)<(pr_description|issue_description|problem_statement|issue|task)>\s*(.*?)\s*</(?:pr_description|issue_description|problem_statement|issue|task)>`)

// lead is the sentence mini-swe-agent's template puts before the issue
// inside <pr_description>.
const lead = "Consider the following PR description:"

// FromPrompt returns the task statement inside prompt: the text of the first
// wrapper tag that holds any, else the whole prompt, trimmed.
func FromPrompt(prompt string) string {
	for _, m := range wrapperRe().FindAllStringSubmatch(prompt, 4) {
		if t := strings.TrimSpace(strings.TrimPrefix(m[2], lead)); t != "" {
			return strings.Clone(t) // not the whole prompt's memory
		}
	}
	return strings.Clone(strings.TrimSpace(prompt))
}
