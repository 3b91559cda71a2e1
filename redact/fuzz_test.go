package redact

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// Whatever a JSON line holds, redacting it keeps it JSON (issue 38 #3:
// a match used to swallow an escape's letters).
func FuzzJSONWriter(f *testing.F) {
	f.Add(`{"a": "x\n-sk-proj-Zq8rT2vLm4Xw9Kp3Jd7Hs1Nc6Bf5Gy0A", "b": ["\u001bghp_16C7e42F292c6912E7710c838347Ae178B4a"]}`)
	f.Add(`{"p": "postgres://u:S3cr3t@h/db", "k": "PASSWORD=hunter22"}`)
	f.Add(`["a@b.io", "/home/ann/x", 1, null]`)
	f.Fuzz(func(t *testing.T, in string) {
		if !json.Valid([]byte(in)) {
			return
		}
		var b bytes.Buffer
		w := (&Redactor{}).JSONWriter(&b)
		w.Write([]byte(in))
		w.Close()
		if !json.Valid(b.Bytes()) {
			t.Fatalf("not JSON after redaction:\n%q\n%q", in, b.String())
		}
	})
}

// The shortcuts Text takes (rules tried only where their words are, keys
// looked for only in long runs of key characters) find what the rules
// applied to the whole text find.
func FuzzTextShortcuts(f *testing.F) {
	f.Add("export OPENAI_API_KEY=sk-proj-AbCdEf1234567890abcdefGHIJ and a@b.io in /home/ann/x")
	f.Add("     2\tMIIE\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END RSA PRIVATE KEY-----")
	f.Add("xbearer 3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e Bearer 3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e")
	f.Add("password = self.password_hash; tokenizer: Tok3n-x, aPi_KeY: 'x1'")
	f.Add("-x-sk-proj-AbCdEf1234567890abcd\nEfGHIJ0987654321zz eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N")
	f.Fuzz(func(t *testing.T, s string) {
		got, _, _, _ := (&Redactor{}).text(s)
		if want := plainText(s); got != want {
			t.Fatalf("text(%q)\n = %q\nwant %q", s, got, want)
		}
	})
}

// plainText is Text without its shortcuts: every rule over the whole text.
func plainText(s string) string {
	for _, rule := range valueRules {
		re := rule.re()
		if rule.starts {
			re = regexp.MustCompile(strings.TrimPrefix(re.String(), "^"))
		}
		s = replaceGroup(re.FindAllStringSubmatchIndex(s, -1), s, func(secret string) string {
			if strings.Contains(secret, KeyMark) {
				return secret
			}
			lines := strings.Split(secret, "\n")
			for i, l := range lines {
				if strings.TrimSpace(l) != "" {
					lines[i] = numberedRe().FindString(l) + KeyMark + l[len(strings.TrimRight(l, "\r")):]
				}
			}
			return strings.Join(lines, "\n")
		})
	}
	s = keyRe().ReplaceAllStringFunc(s, func(m string) string {
		core := strings.TrimLeft(m, "-_")
		if !isKey(core) {
			return m
		}
		return m[:len(m)-len(core)] + KeyMark
	})
	s = emailRe().ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "git@") || strings.HasSuffix(m, ".git") {
			return m
		}
		return EmailMark
	})
	return homeRe().ReplaceAllStringFunc(s, func(m string) string {
		sub := homeRe().FindStringSubmatch(m)
		if sub[2] == UserMark[1:len(UserMark)-1] {
			return m
		}
		return sub[1] + UserMark
	})
}
