// Package redact removes secrets and personal details from what trajscope
// writes for sharing (--redact): API keys and tokens (the common prefixes,
// and long strings random enough to be one), e-mail addresses, and the
// user's name in home-directory paths. Each is replaced by a marker that
// holds no character JSON, HTML or a terminal treats specially, so a
// redacted line stays valid wherever it goes, and a path keeps its depth (a
// path still resolves to the same repository file).
package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
)

// The markers.
const (
	KeyMark   = "[REDACTED:key]"
	EmailMark = "[REDACTED:email]"
	UserMark  = "[user]"
)

var (
	// keyRe: tokens by their issuers' prefixes (OpenAI and Anthropic sk-,
	// GitHub ghp_/gho_/ghu_/ghs_/ghr_ and github_pat_, GitLab glpat-,
	// Hugging Face hf_, AWS access key ids AKIA/ASIA/ABIA/ACCA/A3T…, Slack
	// xox?-, Stripe sk_live_/rk_live_, Google AIza, npm npm_, PyPI pypi-,
	// JSON web tokens), then any long run of token characters, judged by
	// entropy.
	keyRe   = lazyre.New(`\bsk-ant-[A-Za-z0-9_\-]{16,}|\bsk-[A-Za-z0-9_\-]{16,}|\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{30,}|\bglpat-[A-Za-z0-9_\-]{20,}|\bhf_[A-Za-z0-9]{30,}|\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}\b|\bxox[abprs]-[A-Za-z0-9\-]{10,}|\b[sr]k_live_[A-Za-z0-9]{20,}|\bAIza[0-9A-Za-z_\-]{35}|\bnpm_[A-Za-z0-9]{36}|\bpypi-[A-Za-z0-9_\-]{50,}|\beyJ[A-Za-z0-9_\-]{10,}\.eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}|[A-Za-z0-9_\-]{32,}`)
	emailRe = lazyre.New(`[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}`)
	// homeRe: the user's name in /home/NAME, /Users/NAME and
	// C:\Users\NAME (also as JSON writes it, with doubled backslashes).
	homeRe = lazyre.New(`(/home/|/Users/|[A-Za-z]:(?:\\\\|\\)Users(?:\\\\|\\))([A-Za-z0-9._\-]+)`)
)

// Redactor replaces what it finds and counts it.
type Redactor struct {
	mu                  sync.Mutex
	keys, emails, homes int
}

// valueRules find secrets by their context, after the common rules of
// gitleaks (its default rule set is the reference list): each submatch 1
// is the secret, replaced with KeyMark; the rest of the match stays.
var valueRules = []func() *regexp.Regexp{
	// A PEM private key: every line of its body (lines keep their places).
	lazyre.New(`-----BEGIN [A-Z ]*PRIVATE KEY-----\r?\n((?:[A-Za-z0-9+/=]{8,}\r?\n)+)-----END`),
	// A password in a URL: scheme://user:PASSWORD@host, scheme://:PASSWORD@host.
	lazyre.New(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]*:([^\s/@]+)@`),
	// An assignment of a secret (.env files, configs, AWS's secret key):
	// PASSWORD=…, "api_key": "…", aws_secret_access_key = ….
	// The value holds a digit or a symbol: `password = self.password_hash`
	// is code, not a secret.
	lazyre.New(`(?i)(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[A-Za-z0-9_]*["']?\s*[:=]\s*["']?([^\s"'&,;()\[\]{}]*[0-9!@#$%^*+/=~\-][^\s"'&,;()\[\]{}]*)`),
	// A bearer token in a header.
	lazyre.New(`(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{16,}=*)`),
	// A key split at a line end: the next line's run of token characters.
	lazyre.New(`(?:sk-|gh[pousr]_|github_pat_|glpat-|hf_|xox[abprs]-)[A-Za-z0-9_\-]{16,}\r?\n([A-Za-z0-9_\-]{6,})`),
}

// Text returns s redacted.
func (r *Redactor) Text(s string) string {
	var k, e, h int
	for _, rule := range valueRules {
		s = replaceGroup(rule(), s, func(secret string) string {
			if strings.Contains(secret, KeyMark) {
				return secret
			}
			k++
			// Lines keep their places: each line of a secret is a marker.
			lines := strings.Split(secret, "\n")
			for i, l := range lines {
				if strings.TrimSpace(l) != "" {
					lines[i] = KeyMark + l[len(strings.TrimRight(l, "\r")):]
				}
			}
			return strings.Join(lines, "\n")
		})
	}
	s = keyRe().ReplaceAllStringFunc(s, func(m string) string {
		// A long run of token characters may begin with a dash or an
		// underscore before a key ("-sk-…" on a removed patch line).
		core := strings.TrimLeft(m, "-_")
		if !isKey(core) {
			return m
		}
		k++
		return m[:len(m)-len(core)] + KeyMark
	})
	s = emailRe().ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "git@") || strings.HasSuffix(m, ".git") {
			return m // an ssh remote, not a person
		}
		e++
		return EmailMark
	})
	s = homeRe().ReplaceAllStringFunc(s, func(m string) string {
		sub := homeRe().FindStringSubmatch(m)
		if sub[2] == UserMark[1:len(UserMark)-1] {
			return m
		}
		h++
		return sub[1] + UserMark
	})
	r.mu.Lock()
	r.keys, r.emails, r.homes = r.keys+k, r.emails+e, r.homes+h
	r.mu.Unlock()
	return s
}

// replaceGroup replaces submatch 1 of each match of re in s by f of it.
func replaceGroup(re *regexp.Regexp, s string, f func(string) string) string {
	locs := re.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, l := range locs {
		if l[2] < 0 {
			continue
		}
		b.WriteString(s[last:l[2]])
		b.WriteString(f(s[l[2]:l[3]]))
		last = l[3]
	}
	b.WriteString(s[last:])
	return b.String()
}

// isKey judges a match of keyRe: a known prefix is a key; any other long
// string is one when it mixes letters and digits and is random enough
// (hex digests, at most 4 bits a character, and words are not).
func isKey(m string) bool {
	for _, p := range []string{"sk-", "gho_", "ghp_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "hf_", "AKIA", "ASIA", "ABIA", "ACCA", "A3T", "xox", "sk_live_", "rk_live_", "AIza", "npm_", "pypi-", "eyJ"} {
		if strings.HasPrefix(m, p) {
			return true
		}
	}
	var upper, lower, digit bool
	for _, c := range m {
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return upper && lower && digit && entropy(m) >= 4.4
}

// entropy is the Shannon entropy of s in bits a character.
func entropy(s string) float64 {
	var n [256]int
	for i := 0; i < len(s); i++ {
		n[s[i]]++
	}
	h := 0.0
	for _, c := range n {
		if c > 0 {
			p := float64(c) / float64(len(s))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// Summary says what was replaced, for stderr.
func (r *Redactor) Summary() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return fmt.Sprintf("--redact: replaced %d %s, %d %s, %d %s",
		r.keys, plural(r.keys, "key or token", "keys or tokens"),
		r.emails, plural(r.emails, "e-mail address", "e-mail addresses"),
		r.homes, plural(r.homes, "home-directory user name", "home-directory user names"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Run redacts what a run shows: its path, task, patches, commands, edits,
// thoughts and outputs. It is for a run already scored: paths the scores
// were read from are left alone (a home path's user name is replaced in
// place, which keeps every path the same depth).
func (r *Redactor) Run(run *model.Run) {
	run.Path = r.Text(run.Path)
	// Ids come from file names and models from configurations: either may
	// hold an e-mail address or a token. The run is scored by now.
	run.InstanceID, run.RecordedID = r.Text(run.InstanceID), r.Text(run.RecordedID)
	run.Agent, run.Model, run.ExitStatus = r.Text(run.Agent), r.Text(run.Model), r.Text(run.ExitStatus)
	for k := range run.Agents {
		ag := &run.Agents[k]
		ag.ID, ag.Type, ag.Description = r.Text(ag.ID), r.Text(ag.Type), r.Text(ag.Description)
	}
	// What the run shares with a reader's cache (a followed session's
	// actions are kept between readings) is copied before it is changed.
	run.Warnings = slices.Clone(run.Warnings)
	run.Agents = slices.Clone(run.Agents)
	for k := range run.Warnings {
		run.Warnings[k] = r.Text(run.Warnings[k])
	}
	run.Task = r.Text(run.Task)
	run.RecordedPatch = r.Text(run.RecordedPatch)
	run.Prediction.ModelPatch = r.Text(run.Prediction.ModelPatch)
	for i := range run.Actions {
		a := &run.Actions[i]
		a.Command = r.Text(a.Command)
		a.Failure = r.Text(a.Failure)
		a.Changes, a.Reads = slices.Clone(a.Changes), slices.Clone(a.Reads)
		for k := range a.Changes {
			c := &a.Changes[k]
			c.File, c.Old, c.New = r.Text(c.File), r.Text(c.Old), r.Text(c.New)
		}
		for k := range a.Reads {
			a.Reads[k].File = r.Text(a.Reads[k].File)
		}
	}
	run.Observations = r.texts(run.Observations, len(run.Actions))
	run.Thoughts = r.texts(run.Thoughts, len(run.Actions))
}

// Shown is Text for a file's content as the screens show it (FileCache
// SetShown): lines stay where they are.
func (r *Redactor) Shown(b []byte) []byte { return []byte(r.Text(string(b))) }

func (r *Redactor) texts(t model.Texts, n int) model.Texts {
	if t == nil {
		return nil
	}
	out := make(model.TextList, n)
	for i := range out {
		out[i] = r.Text(t.Text(i))
	}
	return out
}

// Writer redacts what is written to w, line by line (a line is never cut
// in the middle of a secret); Close writes the last line.
func (r *Redactor) Writer(w io.Writer) io.WriteCloser { return &lineWriter{r: r, w: w} }

type lineWriter struct {
	r    *Redactor
	w    io.Writer
	buf  []byte
	json bool // lines of JSON: redact decoded string literals
}

func (l *lineWriter) redact(b []byte) []byte {
	if l.json {
		return l.r.jsonText(b)
	}
	return []byte(l.r.Text(string(b)))
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		if _, err := l.w.Write(l.redact(l.buf[:i+1])); err != nil {
			return 0, err
		}
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
	}
	return len(p), nil
}

func (l *lineWriter) Close() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.redact(l.buf))
	l.buf = l.buf[:0]
	return err
}

// JSONWriter redacts JSON lines written to w (convert's records): each
// string literal is decoded, redacted and, when something was replaced,
// encoded again; the rest of a line is kept byte for byte. A secret is
// found in the text a reader sees, never in its escapes (`\n-KEY`, a
// `\u001b` before a key), so every line stays valid JSON. Close writes the
// last line.
func (r *Redactor) JSONWriter(w io.Writer) io.WriteCloser {
	return &lineWriter{r: r, w: w, json: true}
}

// jsonText redacts the string literals of one JSON text.
func (r *Redactor) jsonText(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if b[i] != '"' {
			out = append(out, b[i])
			i++
			continue
		}
		end := i + 1
		for end < len(b) && b[end] != '"' {
			if b[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(b) {
			return append(out, b[i:]...) // an unterminated string: as it is
		}
		lit := b[i : end+1]
		var s string
		if err := json.Unmarshal(lit, &s); err != nil {
			out = append(out, lit...)
		} else if red := r.Text(s); red == s {
			out = append(out, lit...)
		} else {
			var enc bytes.Buffer
			e := json.NewEncoder(&enc)
			e.SetEscapeHTML(false)
			e.Encode(red)
			// As the record was written: runes a terminal acts on stay
			// escaped.
			out = append(out, termsafe.JSON(bytes.TrimSuffix(enc.Bytes(), []byte("\n")))...)
		}
		i = end + 1
	}
	return out
}
