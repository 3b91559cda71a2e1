package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// Each kind of secret is replaced by its marker and counted; what only
// looks long (digests, identifiers, paths, words) is left alone; a home
// path keeps its depth.
func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"export OPENAI_API_KEY=sk-proj-AbCdEf1234567890abcdefGHIJ", "export OPENAI_API_KEY=" + KeyMark},
		{"key sk-ant-api03-Zx9_yW8vU7tS6rQ5pO4nM3lK2jI1hG", "key " + KeyMark},
		{"token ghp_16C7e42F292c6912E7710c838347Ae178B4a and github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "token " + KeyMark + " and " + KeyMark},
		{"aws AKIAIOSFODNN7EXAMPLE done", "aws " + KeyMark + " done"},
		{"slack xoxb-123456789012-abcdefghijkl", "slack " + KeyMark},
		{"bearer 9fQ2xL7mR4tZ8wK1vB6nY3cH5jD0sG2a", "bearer " + KeyMark},
		{"mail alex.doe+ci@example.co.uk now", "mail " + EmailMark + " now"},
		{"cd /home/alex/proj && ls /Users/Alex.Doe/src", "cd /home/" + UserMark + "/proj && ls /Users/" + UserMark + "/src"},
		{`"C:\\Users\\alex\\code"`, `"C:\\Users\\` + UserMark + `\\code"`},
		// gitleaks' common kinds.
		{"aws ASIAY34FZKBOKMUTVV7A sts", "aws " + KeyMark + " sts"},
		{"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = " + KeyMark},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onL\n-----END RSA PRIVATE KEY-----",
			"-----BEGIN RSA PRIVATE KEY-----\n" + KeyMark + "\n" + KeyMark + "\n-----END RSA PRIVATE KEY-----"},
		{"HF_TOKEN hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 set", "HF_TOKEN " + KeyMark + " set"},
		{"gitlab glpat-xK9mN2pQ7rS4tU1vW8yZ done", "gitlab " + KeyMark + " done"},
		{"Authorization: Bearer 3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e", "Authorization: Bearer " + KeyMark},
		{"key sk-proj-AbCdEf1234567890abcd\nEfGHIJ0987654321zz end", "key " + KeyMark + "\n" + KeyMark + " end"},
		{"db postgres://admin:S3cr3tP4ss@db.internal:5432/app", "db postgres://admin:" + KeyMark + "@db.internal:5432/app"},
		{"redis redis://:hunter22@cache:6379", "redis redis://:" + KeyMark + "@cache:6379"},
		{"DB_PASSWORD=Tr0ub4dor&3", "DB_PASSWORD=" + KeyMark + "&3"},
		{"stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc ok", "stripe " + KeyMark + " ok"},
		{"maps AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY ok", "maps " + KeyMark + " ok"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt " + KeyMark},
		// A private key in numbered output (cat -n, a Read tool): each
		// line of its body, its line number kept.
		{"     1\t-----BEGIN RSA PRIVATE KEY-----\n     2\tMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n     3\t4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onL\n     4\t-----END RSA PRIVATE KEY-----",
			"     1\t-----BEGIN RSA PRIVATE KEY-----\n     2\t" + KeyMark + "\n     3\t" + KeyMark + "\n     4\t-----END RSA PRIVATE KEY-----"},
		{"    10→-----BEGIN OPENSSH PRIVATE KEY-----\n    11→b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\n    12→bm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQy\n    13→-----END OPENSSH PRIVATE KEY-----",
			"    10→-----BEGIN OPENSSH PRIVATE KEY-----\n    11→" + KeyMark + "\n    12→" + KeyMark + "\n    13→-----END OPENSSH PRIVATE KEY-----"},
		// Left alone.
		{"password = self.password_hash", "password = self.password_hash"},
		{"commit 3b18e512dba79e4c8300dd08aeb37f8e728b8dad", "commit 3b18e512dba79e4c8300dd08aeb37f8e728b8dad"},
		{"class AbstractSingletonProxyFactoryBean2 extends X", "class AbstractSingletonProxyFactoryBean2 extends X"},
		{"src/main/java/com/example/service/UserAccountService2.java", "src/main/java/com/example/service/UserAccountService2.java"},
		{"git@github.com:owner/repo.git", "git@github.com:owner/repo.git"},
		{"run task-management-service-deployment now", "run task-management-service-deployment now"},
		{"test_weighted_mean_bool_weights_are_converted_properly", "test_weighted_mean_bool_weights_are_converted_properly"},
	}
	for _, c := range cases {
		var r Redactor
		if got := r.Text(c.in); got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	var r Redactor
	r.Text("sk-proj-AbCdEf1234567890abcdefGHIJ a@b.io /home/x/ /home/y/ /home/" + UserMark + "/")
	if got := r.Summary(); got != "--redact: replaced 1 key or token, 1 e-mail address, 2 home-directory user names" {
		t.Errorf("Summary() = %q", got)
	}
}

// A run's text is redacted, its texts read back redacted; a writer
// redacts whole lines, however the writes cut them.
func TestCopyRunAndWriter(t *testing.T) {
	run := &model.Run{Path: "/home/alex/runs/a.traj.json", Task: "mail me at a@b.io",
		Actions:      []model.Action{{Command: "echo sk-proj-AbCdEf1234567890abcdefGHIJ"}},
		Observations: model.TextList{"/Users/alex/x"}, Thoughts: model.TextList{"ok"}}
	var r Redactor
	run = r.Copy(run).(*model.Run)
	if run.Path != "/home/[user]/runs/a.traj.json" || run.Task != "mail me at "+EmailMark || run.Actions[0].Command != "echo "+KeyMark || run.Observation(0) != "/Users/[user]/x" || run.Thought(0) != "ok" {
		t.Errorf("%+v %q", run, run.Observation(0))
	}
	var b strings.Builder
	w := r.Writer(&b)
	for _, part := range []string{`{"a": "sk-proj-AbCdEf12`, `34567890abcdefGHIJ"}` + "\n" + `{"b": "/home/`, `alex/z"}`} {
		w.Write([]byte(part))
	}
	w.Close()
	if want := `{"a": "` + KeyMark + `"}` + "\n" + `{"b": "/home/[user]/z"}`; b.String() != want {
		t.Errorf("writer: %q, want %q", b.String(), want)
	}
}

// Redacting a run changes the run, not what it shares with others: a
// followed session's reader keeps its actions' reads, changes and warnings
// for the next reading.
func TestCopyLeavesSharedDataAlone(t *testing.T) {
	reads := []model.ObservedRead{{File: "/home/alex/a.py", Start: 1, End: 2}}
	changes := []model.Change{{File: "/home/alex/a.py", Old: "x", New: "y"}}
	warnings := []string{"/home/alex/a.py: line 3 skipped"}
	run := &model.Run{Actions: []model.Action{{Reads: reads, Changes: changes}}, Warnings: warnings}
	var r Redactor
	run = r.Copy(run).(*model.Run)
	if run.Actions[0].Reads[0].File != "/home/[user]/a.py" || run.Actions[0].Changes[0].File != "/home/[user]/a.py" || run.Warnings[0] != "/home/[user]/a.py: line 3 skipped" {
		t.Errorf("not redacted: %+v %v", run.Actions[0], run.Warnings)
	}
	if reads[0].File != "/home/alex/a.py" || changes[0].File != "/home/alex/a.py" || warnings[0] != "/home/alex/a.py: line 3 skipped" {
		t.Errorf("the shared slices were changed: %v %v %v", reads, changes, warnings)
	}
}

// Redacting JSON lines finds secrets in the decoded text, never in the
// escapes around them: a key after "\n-" (a removed patch line) or after
// an escaped ESC is replaced and the line is still valid JSON.
func TestJSONWriterKeepsJSONValid(t *testing.T) {
	key := "sk-proj-" + strings.Repeat("Ab3xQ9", 6)
	in := `{"instance_id": "a__b-1", "model_patch": "--- a/x\n+++ b/x\n-` + key + `\n+ok\n", "note": "\u001b` + key + `", "plain": "kept \u003c as is"}` + "\n"
	var b bytes.Buffer
	r := &Redactor{}
	w := r.JSONWriter(&b)
	w.Write([]byte(in))
	w.Close()
	out := b.String()
	var doc map[string]string
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if strings.Contains(out, key[:12]) || doc["model_patch"] != "--- a/x\n+++ b/x\n-"+KeyMark+"\n+ok\n" || doc["note"] != "\x1b"+KeyMark {
		t.Errorf("redacted:\n%s", out)
	}
	if !strings.Contains(out, `"plain": "kept \u003c as is"`) || !strings.Contains(out, `\u001b`) {
		t.Errorf("untouched strings or escapes changed:\n%s", out)
	}
}
