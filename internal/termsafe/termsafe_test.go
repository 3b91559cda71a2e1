package termsafe

import (
	"encoding/json"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

func TestLineAndText(t *testing.T) {
	cases := []struct {
		name, in, line, text string
	}{
		{"plain", "cat a.py", "cat a.py", "cat a.py"},
		{"csi colour", "\x1b[31mred\x1b[0m", `\e[31mred\e[0m`, `\e[31mred\e[0m`},
		{"osc52 clipboard", "\x1b]52;c;ZXZpbA==\x07", `\e]52;c;ZXZpbA==\x07`, `\e]52;c;ZXZpbA==\x07`},
		{"title", "\x1b]0;pwned\x1b\\", `\e]0;pwned\e\`, `\e]0;pwned\e\`},
		{"cr and backspace", "ok\rbad\b", `ok\rbad\x08`, `ok\rbad\x08`},
		{"newline tab", "a\n\tb", `a\n\tb`, "a\n\tb"},
		{"c1 csi", "x\u009b31m", `x\x9b31m`, `x\x9b31m`},
		{"bidi override", "a\u202eb", `a\u202eb`, `a\u202eb`},
		{"invalid utf8", "a\xffb", `a\xffb`, `a\xffb`},
		{"unicode kept", "héllo → ok", "héllo → ok", "héllo → ok"},
		{"del", "a\x7fb", `a\x7fb`, `a\x7fb`},
		{"zero width space", "a\u200bb", `a\u200bb`, `a\u200bb`},
		{"zero width joiners", "a\u200c\u200db", `a\u200c\u200db`, `a\u200c\u200db`},
		{"word joiner", "a\u2060b", `a\u2060b`, `a\u2060b`},
		{"bom", "\ufeffa", `\ufeffa`, `\ufeffa`},
		{"line separator", "a\u2028b", `a\u2028b`, `a\u2028b`},
		{"paragraph separator", "a\u2029b", `a\u2029b`, `a\u2029b`},
		{"arabic letter mark", "a\u061cb", `a\u061cb`, `a\u061cb`},
		{"soft hyphen", "a\u00adb", `a\xadb`, `a\xadb`},
		{"tag characters hide text", "ok\U000E0041\U000E0042", `ok\U000e0041\U000e0042`, `ok\U000e0041\U000e0042`},
		{"emoji and cjk kept", "✓ 日本 🙂", "✓ 日本 🙂", "✓ 日本 🙂"},
	}
	for _, c := range cases {
		if got := Line(c.in); got != c.line {
			t.Errorf("%s: Line = %q, want %q", c.name, got, c.line)
		}
		if got := Text(c.in); got != c.text {
			t.Errorf("%s: Text = %q, want %q", c.name, got, c.text)
		}
	}
}

// FuzzLine checks the promise: no control byte survives.
func FuzzLine(f *testing.F) {
	for _, s := range []string{"\x1b[2J", "\x1b]52;c;AA==\x07", "a\rb", "\u009b", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer testkit.FuzzBudget(t)()
		for _, out := range []string{Line(s), Text(s)} {
			for _, r := range out {
				if Unsafe(r) && r != '\n' && r != '\t' {
					t.Fatalf("control rune %U survived in %q", r, out)
				}
			}
		}
		for _, r := range Line(s) {
			if r == '\n' || r == '\t' {
				t.Fatalf("Line kept %U", r)
			}
		}
	})
}

func TestJSON(t *testing.T) {
	in := []byte("{\"id\": \"a\u009bb\u202ec\x7fd\u200fe\"}\n")
	if got := string(JSON(in)); got != `{"id": "a\u009bb\u202ec\u007fd\u200fe"}`+"\n" {
		t.Errorf("got %q", got)
	}
	// Invisible characters too; an astral one as a surrogate pair, so the
	// result still decodes to the same string.
	in = []byte("{\"id\": \"a\u200bb\ufeffc\U000E0041\"}")
	got := JSON(in)
	if string(got) != `{"id": "a\u200bb\ufeffc\udb40\udc41"}` {
		t.Errorf("got %q", got)
	}
	var v, w map[string]string
	if json.Unmarshal(in, &v) != nil || json.Unmarshal(got, &w) != nil || v["id"] != w["id"] {
		t.Errorf("escaped JSON decodes to %q, want %q", w["id"], v["id"])
	}
	plain := []byte("{\"id\": \"abc\",\n \"x\": \"é\"}")
	if got := JSON(plain); &got[0] != &plain[0] {
		t.Error("plain input was copied")
	}
}

// Cut keeps no fragment of the word the limit falls in (half a secret
// matches no key pattern), splits no rune, and leaves short text alone.
func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"find AKIAQ0K5Z7Q2M9W4ABCD here", 12, "find…"},
		{"find AKIAQ0K5Z7Q2M9W4ABCD here", 29, "find AKIAQ0K5Z7Q2M9W4ABCD…"},
		{"one two", 4, "one…"},
		{"averyveryverylongword", 6, "averyv…"},
		{"日本語のテキスト", 7, "日本…"},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}
