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
	"strings"
	"sync"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
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
	// names holds the redaction of each short string met (Copy, Name);
	// originals maps each one that changed back.
	names     map[string]redacted
	originals map[string]string
}

// valueRules find secrets by their context, after the common rules of
// gitleaks (its default rule set is the reference list): each submatch 1
// is the secret, replaced with KeyMark; the rest of the match stays. A
// rule runs only on a text that holds one of its words (lower-cased where
// the rule ignores case): most of a run's text holds none, and the
// expressions cost more than the look.
var valueRules = []struct {
	re    func() *regexp.Regexp
	words []string
	lower bool
	// starts: every match begins with one of words, so re (anchored) is
	// tried only where one does.
	starts bool
}{
	// A PEM private key: every line of its body (lines keep their places,
	// and a line number a tool printed before each stays).
	{lazyre.New(`-----BEGIN [A-Z ]*PRIVATE KEY-----\r?\n((?:` + numbered + `[A-Za-z0-9+/=]{8,}\r?\n)+)` + numbered + `-----END`), []string{"PRIVATE KEY-----"}, false, false},
	// A password in a URL: scheme://user:PASSWORD@host, scheme://:PASSWORD@host.
	{lazyre.New(`[A-Za-z][A-Za-z0-9+.\-]*://[^\s/:@]*:([^\s/@]+)@`), []string{"://"}, false, false},
	// An assignment of a secret (.env files, configs, AWS's secret key):
	// PASSWORD=…, "api_key": "…", aws_secret_access_key = ….
	// The value holds a digit or a symbol: `password = self.password_hash`
	// is code, not a secret.
	{lazyre.New(`^(?i)(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key)[A-Za-z0-9_]*["']?\s*[:=]\s*["']?([^\s"'&,;()\[\]{}]*[0-9!@#$%^*+/=~\-][^\s"'&,;()\[\]{}]*)`),
		[]string{"passw", "pwd", "secret", "token", "api", "access", "private"}, true, true},
	// A bearer token in a header.
	{lazyre.New(`(?i)\bbearer\s+([A-Za-z0-9._~+/\-]{16,}=*)`), []string{"bearer"}, true, false},
	// A key split at a line end: the next line's run of token characters.
	{lazyre.New(`(?:sk-|gh[pousr]_|github_pat_|glpat-|hf_|xox[abprs]-)[A-Za-z0-9_\-]{16,}\r?\n([A-Za-z0-9_\-]{6,})`), []string{"sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "hf_", "xox"}, false, false},
}

// numbered is the line number a tool prints before each line of a file
// ("    12\t", "    12→", "12:"), or nothing.
const numbered = `(?:[ \t]*[0-9]+(?:\t|→|:|\|)[ \t]?)?`

var numberedRe = lazyre.New(`^` + numbered)

// tokenRun is the shortest run of token characters a key is: the least
// keyRe and the split-key rule match (xoxb- and ten more).
const tokenRun = 15

// hasTokenRun reports whether s holds a run of at least tokenRun token
// characters ([A-Za-z0-9_-]): no key is shorter.
func hasTokenRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			if n++; n >= tokenRun {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}

// keyRuns replaces each run of key characters ([A-Za-z0-9_.-]) of at
// least tokenRun in s by f of it. Every key keyRe finds lies inside one
// such run, and a run's ends are word boundaries in s as in the run, so
// keyRe over the runs finds what it finds over s; the text between them,
// most of any output, is not matched at all.
func keyRuns(s string, f func(string) string) string {
	var b strings.Builder
	last, start := 0, -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) {
			c := s[i]
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' {
				if start < 0 {
					start = i
				}
				continue
			}
		}
		if start >= 0 && i-start >= tokenRun {
			if out := f(s[start:i]); out != s[start:i] {
				b.WriteString(s[last:start])
				b.WriteString(out)
				last = i
			}
		}
		start = -1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// lowerASCII is s with its ASCII letters lower-cased (other bytes kept).
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for k := i; k < len(b); k++ {
				if c := b[k]; c >= 'A' && c <= 'Z' {
					b[k] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// containsAny reports whether s holds one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Text returns s redacted.
func (r *Redactor) Text(s string) string {
	out, k, e, h := r.text(s)
	r.mu.Lock()
	r.keys, r.emails, r.homes = r.keys+k, r.emails+e, r.homes+h
	r.mu.Unlock()
	return out
}

// text is s redacted, with the keys, e-mail addresses and home user names
// it replaced.
func (r *Redactor) text(s string) (out string, k, e, h int) {
	tokens := hasTokenRun(s)
	lower := ""
	for i, rule := range valueRules {
		if i == len(valueRules)-1 && !tokens {
			continue // the split key: a run of token characters
		}
		in := s
		if rule.lower {
			if lower == "" {
				lower = lowerASCII(s)
			}
			in = lower
		}
		if !containsAny(in, rule.words) {
			continue
		}
		var locs [][]int
		if rule.starts {
			locs = findAt(rule.re(), s, in, rule.words)
		} else {
			locs = rule.re().FindAllStringSubmatchIndex(s, -1)
		}
		s = replaceGroup(locs, s, func(secret string) string {
			if strings.Contains(secret, KeyMark) {
				return secret
			}
			k++
			// Lines keep their places: each line of a secret is a marker,
			// after the line number a tool printed before it.
			lines := strings.Split(secret, "\n")
			for i, l := range lines {
				if strings.TrimSpace(l) != "" {
					num := numberedRe().FindString(l)
					lines[i] = num + KeyMark + l[len(strings.TrimRight(l, "\r")):]
				}
			}
			return strings.Join(lines, "\n")
		})
		lower = ""
	}
	if tokens {
		s = keyRuns(s, func(run string) string {
			if len(run) < 32 && !containsAny(run, keyPrefixes) {
				return run // no prefix, and too short to judge by entropy
			}
			return keyRe().ReplaceAllStringFunc(run, func(m string) string {
				// A long run of token characters may begin with a dash or
				// an underscore before a key ("-sk-…" on a removed patch
				// line).
				core := strings.TrimLeft(m, "-_")
				if !isKey(core) {
					return m
				}
				k++
				return m[:len(m)-len(core)] + KeyMark
			})
		})
	}
	if strings.Contains(s, "@") {
		s = emailRe().ReplaceAllStringFunc(s, func(m string) string {
			if strings.HasPrefix(m, "git@") || strings.HasSuffix(m, ".git") {
				return m // an ssh remote, not a person
			}
			e++
			return EmailMark
		})
	}
	if strings.Contains(s, "/home/") || strings.Contains(s, "/Users/") || strings.Contains(s, "Users\\") {
		s = homeRe().ReplaceAllStringFunc(s, func(m string) string {
			sub := homeRe().FindStringSubmatch(m)
			if sub[2] == UserMark[1:len(UserMark)-1] {
				return m
			}
			h++
			return sub[1] + UserMark
		})
	}
	return s, k, e, h
}

// findAt is FindAllStringSubmatchIndex of an anchored re whose every
// match begins with one of words: re is tried where in (s, or s
// lower-cased in place) holds one, left to right, each match past the
// last, as the unanchored expression would find them.
func findAt(re *regexp.Regexp, s, in string, words []string) [][]int {
	var out [][]int
	for pos := 0; pos < len(s); {
		next := -1
		for _, w := range words {
			if i := strings.Index(in[pos:], w); i >= 0 && (next < 0 || i < next) {
				next = i
			}
		}
		if next < 0 {
			break
		}
		p := pos + next
		loc := re.FindStringSubmatchIndex(s[p:])
		if loc == nil {
			pos = p + 1
			continue
		}
		for k := range loc {
			if loc[k] >= 0 {
				loc[k] += p
			}
		}
		out = append(out, loc)
		pos = max(loc[1], p+1)
	}
	return out
}

// replaceGroup replaces submatch 1 of each match (locs, as
// FindAllStringSubmatchIndex gives them) in s by f of it.
func replaceGroup(locs [][]int, s string, f func(string) string) string {
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

// keyPrefixes are the issuers' prefixes keyRe knows.
var keyPrefixes = []string{"sk-", "gho_", "ghp_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "hf_", "AKIA", "ASIA", "ABIA", "ACCA", "A3T", "xox", "sk_live_", "rk_live_", "AIza", "npm_", "pypi-", "eyJ"}

// isKey judges a match of keyRe: a known prefix is a key; any other long
// string is one when it mixes letters and digits and is random enough
// (hex digests, at most 4 bits a character, and words are not).
func isKey(m string) bool {
	for _, p := range keyPrefixes {
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

// Shown is Text for a file's content as the screens show it
// (scoring.Analysis.ShowAs): lines stay where they are.
func (r *Redactor) Shown(b []byte) []byte { return []byte(r.Text(string(b))) }

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
