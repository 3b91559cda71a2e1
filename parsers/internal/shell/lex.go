package shell

import "strings"

// tokKind is the kind of a lexed shell token.
type tokKind int

const (
	tWord tokKind = iota
	tOp
	tRedir
)

// token is one lexed piece of a command line. The lexer knows enough POSIX
// shell (quotes, escapes, $(...), heredocs, redirections) to find commands and
// their operands; it never expands or evaluates anything.
type token struct {
	kind tokKind
	// val is a word's value with quotes removed, or an operator's text.
	val string
	// expand marks a word whose value depends on the shell at run time
	// ($VAR, $(...), backticks, globs, ~, brace expansion): its value is not
	// a usable path.
	expand bool
	// quoted marks a word that had any quoting.
	quoted bool

	// Redirections.
	fd     int    // explicit file descriptor, -1 when none was written
	op     string // ">", ">>", "<", "<<", "<<-", "<<<", ">&", "<&", "&>", "&>>", ">|", "<>"
	target token0 // the word after the operator (heredoc delimiter for << and <<-)
	body   string // heredoc body
}

// token0 is a word without the redirection fields, to keep token small and
// non-recursive.
type token0 struct {
	val    string
	expand bool
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// isMeta reports the characters that end an unquoted word.
func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// lex splits a command line into tokens. It never fails: unterminated quotes
// and substitutions run to the end of the input.
func lex(s string) []token {
	var toks []token
	var pending []int // indices of heredoc redirections awaiting their body
	addRedir := func(t token) {
		toks = append(toks, t)
		if t.op == "<<" || t.op == "<<-" {
			pending = append(pending, len(toks)-1)
		}
	}
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isBlank(c):
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i += 2 // line continuation
		case c == '\n':
			toks = append(toks, token{kind: tOp, val: "\n"})
			i++
			for _, k := range pending {
				toks[k].body, i = readHeredoc(s, i, toks[k].target.val, toks[k].op == "<<-")
			}
			pending = pending[:0]
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			var t token
			t, i = lexOp(s, i)
			toks = append(toks, t)
		case c == '<' || c == '>':
			var t token
			t, i = lexRedirOp(s, i, -1)
			addRedir(t)
		default:
			if t, j, ok := lexFDRedir(s, i); ok {
				addRedir(t)
				i = j
				continue
			}
			var w token0
			var quoted bool
			w, quoted, i = lexWord(s, i)
			toks = append(toks, token{kind: tWord, val: w.val, expand: w.expand, quoted: quoted})
		}
	}
	return toks
}

// lexOp reads a control operator (; ;; & && | || |& ( )) or an &> / &>>
// redirection starting at s[i].
func lexOp(s string, i int) (token, int) {
	for _, op := range []string{";;", "&&", "||", "|&"} {
		if strings.HasPrefix(s[i:], op) {
			if op == "|&" {
				op = "|" // stderr joins the pipe: the same stage follows
			}
			return token{kind: tOp, val: op}, i + 2
		}
	}
	switch {
	case strings.HasPrefix(s[i:], "&>>"):
		return lexRedir(s, i+3, -1, "&>>")
	case strings.HasPrefix(s[i:], "&>"):
		return lexRedir(s, i+2, -1, "&>")
	}
	return token{kind: tOp, val: s[i : i+1]}, i + 1
}

// lexFDRedir reads a redirection with an explicit file descriptor: a run of
// digits directly followed by < or > ("2>&1"). ok is false when s[i] does
// not start one.
func lexFDRedir(s string, i int) (t token, next int, ok bool) {
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' && j-i < 4 {
		j++
	}
	if j == i || j >= len(s) || (s[j] != '<' && s[j] != '>') {
		return token{}, i, false
	}
	fd := 0
	for _, d := range s[i:j] {
		fd = fd*10 + int(d-'0')
	}
	t, next = lexRedirOp(s, j, fd)
	return t, next, true
}

// lexRedirOp reads a redirection operator starting at s[i] ('<' or '>').
func lexRedirOp(s string, i, fd int) (token, int) {
	for _, op := range []string{"<<<", "<<-", "<<", "<>", "<&", "<", ">>", ">&", ">|", ">"} {
		if strings.HasPrefix(s[i:], op) {
			return lexRedir(s, i+len(op), fd, op)
		}
	}
	return lexRedir(s, i+1, fd, s[i:i+1]) // unreachable: s[i] is '<' or '>'
}

// lexRedir reads the target word of a redirection whose operator ends at i.
func lexRedir(s string, i, fd int, op string) (token, int) {
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	t := token{kind: tRedir, fd: fd, op: op}
	if i < len(s) && !isMeta(s[i]) {
		// quoted, for a redirection, is its target's: a quoted
		// here-document delimiter keeps the body from expansion.
		t.target, t.quoted, i = lexWord(s, i)
	}
	return t, i
}

// lexWord reads one word starting at s[i].
func lexWord(s string, i int) (token0, bool, int) {
	var b strings.Builder
	var w token0
	quoted := false
	start := i
	for i < len(s) && !isMeta(s[i]) {
		c := s[i]
		switch c {
		case '\\':
			if i+1 < len(s) {
				if s[i+1] != '\n' {
					b.WriteByte(s[i+1])
				}
				i += 2
			} else {
				i++
			}
			quoted = true
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				b.WriteString(s[i+1:])
				i = len(s)
			} else {
				b.WriteString(s[i+1 : i+1+j])
				i += j + 2
			}
			quoted = true
		case '"':
			var exp bool
			i, exp = lexDouble(s, i+1, &b)
			w.expand = w.expand || exp
			quoted = true
		case '`':
			j := skipBacktick(s, i+1)
			b.WriteString(s[i:j])
			i = j
			w.expand = true
		case '$':
			var exp, q bool
			i, exp, q = lexDollar(s, i, &b)
			w.expand = w.expand || exp
			quoted = quoted || q
		case '*', '?', '[':
			b.WriteByte(c)
			i++
			w.expand = true
		case '{', '}':
			b.WriteByte(c)
			i++
			if i-start > 1 || (i < len(s) && !isMeta(s[i])) {
				w.expand = true // brace expansion, not a lone { or }
			}
		case '~':
			b.WriteByte(c)
			if i == start {
				w.expand = true
			}
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	w.val = b.String()
	return w, quoted, i
}

// lexDollar reads what a '$' at s[i] starts in an unquoted word: an ANSI-C
// string $'...', a substitution $(...), a parameter ${...} or $NAME, or a
// plain dollar sign. It returns the index past it, whether the value depends
// on the shell (expand) and whether it was quoted.
func lexDollar(s string, i int, b *strings.Builder) (next int, expand, quoted bool) {
	switch {
	case strings.HasPrefix(s[i:], "$'"):
		return lexANSIC(s, i+2, b), false, true
	case strings.HasPrefix(s[i:], "$("):
		j := skipParens(s, i+2)
		b.WriteString(s[i:j])
		return j, true, false
	case strings.HasPrefix(s[i:], "${"):
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			j = len(s) - i - 1
		}
		b.WriteString(s[i : i+j+1])
		return i + j + 1, true, false
	}
	b.WriteByte('$')
	i++
	return i, i < len(s) && isVarChar(s[i]), false
}

func isVarChar(c byte) bool {
	return c == '_' || c == '@' || c == '*' || c == '#' || c == '?' || c == '!' || c == '$' ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// lexDouble reads the inside of a double-quoted string; i is just past the
// opening quote. It returns the index past the closing quote.
func lexDouble(s string, i int, b *strings.Builder) (int, bool) {
	exp := false
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			return i + 1, exp
		case c == '\\' && i+1 < len(s):
			switch s[i+1] {
			case '"', '\\', '$', '`':
				b.WriteByte(s[i+1])
			case '\n':
			default:
				b.WriteByte('\\')
				b.WriteByte(s[i+1])
			}
			i += 2
		case c == '`':
			j := skipBacktick(s, i+1)
			b.WriteString(s[i:j])
			i = j
			exp = true
		case c == '$' && strings.HasPrefix(s[i:], "$("):
			j := skipParens(s, i+2)
			b.WriteString(s[i:j])
			i = j
			exp = true
		case c == '$' && i+1 < len(s) && (isVarChar(s[i+1]) || s[i+1] == '{'):
			b.WriteByte(c)
			i++
			exp = true
		default:
			b.WriteByte(c)
			i++
		}
	}
	return i, exp
}

// lexANSIC reads a $'...' string; i is past the opening quote.
func lexANSIC(s string, i int, b *strings.Builder) int {
	for i < len(s) {
		c := s[i]
		if c == '\'' {
			return i + 1
		}
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i+1])
			}
			i += 2
			continue
		}
		b.WriteByte(c)
		i++
	}
	return i
}

// skipBacktick returns the index past the backtick closing a `...`
// substitution whose body starts at i.
func skipBacktick(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case '`':
			return i + 1
		}
		i++
	}
	return len(s)
}

// skipParens returns the index past the ')' closing a $( whose body starts
// at i, skipping quoted text inside.
func skipParens(s string, i int) int {
	depth := 1
	for i < len(s) {
		switch s[i] {
		case '\\':
			i += 2
			continue
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return len(s)
			}
			i += j + 2
			continue
		case '"':
			var sink strings.Builder
			i, _ = lexDouble(s, i+1, &sink)
			continue
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(s)
}

// readHeredoc reads heredoc body lines starting at i up to the delimiter line
// and returns the body and the index after the delimiter line.
func readHeredoc(s string, i int, delim string, stripTabs bool) (string, int) {
	var b strings.Builder
	for i < len(s) {
		j := strings.IndexByte(s[i:], '\n')
		end := len(s)
		if j >= 0 {
			end = i + j
		}
		line := s[i:end]
		cmp := strings.TrimSuffix(line, "\r")
		if stripTabs {
			cmp = strings.TrimLeft(cmp, "\t")
		}
		next := end
		if end < len(s) {
			next = end + 1
		}
		if cmp == delim {
			return b.String(), next
		}
		b.WriteString(line)
		b.WriteByte('\n')
		i = next
	}
	return b.String(), i
}
