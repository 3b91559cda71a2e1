package cli

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// secretKinds make one secret of each common kind (gitleaks' default rule
// set) from a four-character tag, so each planted place carries its own.
var secretKinds = map[string]func(tag string) string{
	"github":    func(tag string) string { return "ghp_" + tag + "x9Lm2Qr7Tz4Kw8Np3Vb6Hd1Jf5Gs0Ac" },
	"aws":       func(tag string) string { return "AKIA" + tag + "Z7Q2M9W4X8K3" },
	"openai":    func(tag string) string { return "sk-proj-" + tag + "Lq8Zr2Tm6Wv4Xn9Kp3Bd7Hf1" },
	"anthropic": func(tag string) string { return "sk-ant-api03-" + tag + "Rt5Yu8Io2Pa6Sd9Fg3Hj" },
	"slack":     func(tag string) string { return "xoxb-2219340-" + tag + "Kq7Wm3Zp" },
	"gitlab":    func(tag string) string { return "glpat-" + tag + "xK9mN2pQ7rS4tU1v" },
	"stripe":    func(tag string) string { return "sk_live_" + tag + "4eC39HqLyjWDarjtT1zd" },
	"google":    func(tag string) string { return "AIza" + tag + "SyD9tSrke72PouQMnMXa7eZSW0jkFMB" },
	"hf":        func(tag string) string { return "hf_" + tag + "AbCdEfGhIjKlMnOpQrStUvWxYz01" },
	"npm":       func(tag string) string { return "npm_" + tag + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6" },
	"url":       func(tag string) string { return "S3cr3t" + tag + "pw" },
	"email":     func(tag string) string { return "ann." + strings.ToLower(tag) + "@example.org" },
	"home":      func(tag string) string { return "u" + strings.ToLower(tag) + "home" },
}

// planted is a secret of every kind per place, the places named by tag.
type planted struct {
	tags    map[string]string // tag -> place
	secrets map[string]string // secret -> "place/kind"
}

func (p *planted) plant(place string) map[string]string {
	tag := fmt.Sprintf("Q%dK%d", len(p.tags)/10, len(p.tags)%10)
	p.tags[tag] = place
	out := map[string]string{}
	for kind, make := range secretKinds {
		s := make(tag)
		out[kind] = s
		p.secrets[s] = place + "/" + kind
	}
	return out
}

// text is one line holding every kind of secret of a place, as it would
// appear: the URL password inside a URL, the user name in a home path.
func (p *planted) text(place string) string {
	s := p.plant(place)
	var parts []string
	for kind, v := range s {
		switch kind {
		case "url":
			parts = append(parts, "postgres://admin:"+v+"@db:5432/app")
		case "home":
			parts = append(parts, "/home/"+v+"/work")
		default:
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " ")
}

// scan reports every planted secret (or a distinctive part of it) that
// text shows.
func (p *planted) scan(t *testing.T, surface, text string) {
	t.Helper()
	for s, where := range p.secrets {
		probe := s
		if len(s) > 12 {
			probe = s[:len(s)-4] // the secret, a marker's worth short
		}
		if strings.Contains(text, probe) {
			t.Errorf("%s shows %s (%s)", surface, where, probe)
		}
	}
}

// The redaction test: a Claude Code session with a sub-agent carries a
// secret of every common kind in every place a run can carry text (its
// file name, the task, commands, paths a sub-agent read, sub-agent
// messages and metas, outputs whose private key is split across numbered
// lines, the model's name) and every surface --redact serves, stderr
// included, shows none of them: view (summary, --json, the run list, the
// explorer's screens through .cast and .svg), export (page, site),
// compare, convert, grep and watch.
func TestPlantedSecretsOnEverySurface(t *testing.T) {
	p := &planted{tags: map[string]string{}, secrets: map[string]string{}}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	work := filepath.Join(t.TempDir(), "work")
	os.MkdirAll(work, 0o755)

	name := p.plant("file name")["github"]
	id := "sess-" + name
	task := p.text("task")
	cmd := p.text("command")
	readDir := p.plant("path read")
	readPath := "/app/" + readDir["aws"] + "/" + readDir["github"] + "/creds.py"
	subText := p.text("sub-agent message")
	metaDesc, metaType := p.text("sub-agent description"), p.plant("sub-agent type")["openai"]
	model := "claude-" + p.plant("model")["hf"]
	pem := "     1\t-----BEGIN RSA PRIVATE KEY-----\n     2\tMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo" +
		"\n     3\t4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onL\n     4\t-----END RSA PRIVATE KEY-----"
	p.secrets["MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo"] = "pem/line 2"
	p.secrets["4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onL"] = "pem/line 3"
	output := p.text("tool output") + "\n" + pem

	rec := func(v map[string]any) string {
		v["sessionId"], v["cwd"], v["timestamp"] = id, work, "2026-01-01T00:00:00Z"
		b, _ := json.Marshal(v)
		return string(b) + "\n"
	}
	msg := func(role string, content any) map[string]any {
		m := map[string]any{"role": role, "content": content}
		if role == "assistant" {
			m["model"], m["id"] = model, fmt.Sprintf("m%d", len(content.([]any)))
		}
		return m
	}
	use := func(id, name string, input map[string]any) []any {
		return []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}
	}
	result := func(id, text string) []any {
		return []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": text}}
	}
	session := rec(map[string]any{"type": "user", "uuid": "u0", "message": msg("user", task)}) +
		rec(map[string]any{"type": "assistant", "uuid": "a1", "parentUuid": "u0", "message": msg("assistant", use("t1", "Bash", map[string]any{"command": "cat .env # " + cmd}))}) +
		rec(map[string]any{"type": "user", "uuid": "r1", "parentUuid": "a1", "message": msg("user", result("t1", output))}) +
		rec(map[string]any{"type": "assistant", "uuid": "a2", "parentUuid": "r1", "message": msg("assistant", use("t2", "Task", map[string]any{"description": metaDesc, "subagent_type": metaType, "prompt": subText}))}) +
		rec(map[string]any{"type": "user", "uuid": "r2", "parentUuid": "a2", "message": msg("user", result("t2", subText)), "toolUseResult": map[string]any{"agentId": "f1"}})
	sub := rec(map[string]any{"type": "user", "uuid": "s0", "isSidechain": true, "agentId": "f1", "message": msg("user", subText)}) +
		rec(map[string]any{"type": "assistant", "uuid": "s1", "parentUuid": "s0", "isSidechain": true, "agentId": "f1", "message": msg("assistant", append([]any{map[string]any{"type": "text", "text": subText}}, use("t3", "Read", map[string]any{"file_path": readPath, "offset": 1, "limit": 4})...))}) +
		rec(map[string]any{"type": "user", "uuid": "s2", "parentUuid": "s1", "isSidechain": true, "agentId": "f1", "message": msg("user", result("t3", pem))})
	meta := `{"agentType": ` + jsonString(metaType) + `, "description": ` + jsonString(metaDesc) + `}`

	// The session where Claude Code keeps it (for watch), and a copy.
	project := filepath.Join(home, ".claude", "projects", regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(work, "-"))
	for _, dir := range []string{project, filepath.Join(t.TempDir(), "runs")} {
		os.MkdirAll(filepath.Join(dir, id, "subagents"), 0o755)
		os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(session), 0o644)
		os.WriteFile(filepath.Join(dir, id, "subagents", "agent-f1.jsonl"), []byte(sub), 0o644)
		os.WriteFile(filepath.Join(dir, id, "subagents", "agent-f1.meta.json"), []byte(meta), 0o644)
		project = dir
	}
	runs := project
	file := filepath.Join(runs, id+".jsonl")

	// Unredacted, the places are read at all: the test would pass for a
	// reader that dropped them.
	_, plain, _ := exec(t, "view", file, "--json")
	rawPage := filepath.Join(t.TempDir(), "raw.html")
	exec(t, "export", file, "-o", rawPage)
	b, _ := os.ReadFile(rawPage)
	plain += string(b)
	for _, must := range []string{name, readDir["aws"], metaType, "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo", model} {
		if !strings.Contains(plain, must) {
			t.Fatalf("the session as read does not carry %q: the test plants nothing there", must)
		}
	}

	out := t.TempDir()
	site := filepath.Join(out, "site")
	surfaces := map[string][]string{
		"summary":          {"view", file, "--redact"},
		"view --json":      {"view", file, "--json", "--redact"},
		"view observed":    {"view", file, "--lens", "observed", "--redact"},
		"run list":         {"view", runs, "--redact"},
		"run list --json":  {"view", runs, "--json", "--redact"},
		"page":             {"export", file, "--redact", "-o", filepath.Join(out, "run.html")},
		"cast":             {"export", file, "--redact", "--size", "160x50", "-o", filepath.Join(out, "run.cast")},
		"svg":              {"export", file, "--redact", "--step", "3", "-o", filepath.Join(out, "run.svg")},
		"svg observed":     {"export", file, "--redact", "--lens", "observed", "--step", "1", "-o", filepath.Join(out, "obs.svg")},
		"site":             {"export", "site", runs, "--redact", "-o", site},
		"compare":          {"compare", file, file, "--redact"},
		"compare --json":   {"compare", file, file, "--json", "--redact"},
		"convert":          {"convert", file, "--redact"},
		"convert observed": {"convert", file, "--lens", "observed", "--redact"},
		"grep":             {"grep", "--redact", "-i", "key|creds|proj|ann", file},
		"watch":            {"watch", work, "--redact"},
	}
	for name, args := range surfaces {
		code, stdout, stderr := exec(t, args...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, stderr)
			continue
		}
		p.scan(t, name, stdout)
		p.scan(t, name+" (stderr)", stderr)
	}
	// What the exports wrote.
	filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(path)
			p.scan(t, "file "+filepath.Base(path), string(b))
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		t.Errorf("the site was not written: %v", err)
	}
}

// Two tasks whose ids differ only in a secret stay two tasks on a
// redacted site: the compare page holds the two runs of one of them, not
// all three runs (grouping is by the task as read, story.TaskKey).
func TestRedactedSiteKeepsTasksApart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs")
	a, b := "owner__repo-ghp_16C7e42F292c6912E7710c838347Ae178B4a", "owner__repo-ghp_26C7e42F292c6912E7710c838347Ae178B4a"
	traj := miniTraj([]string{"cat pkg/mod.py"}, []string{"x = 1"}, "File: pkg/mod.py\nLines: 1-1")
	for _, f := range []string{"m1/" + a, "m2/" + a, "m1/" + b} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755)
		write(t, filepath.Join(dir, f+".traj.json"), traj)
	}
	site := filepath.Join(t.TempDir(), "site")
	code, _, errs := exec(t, "export", "site", dir, "--redact", "-o", site)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	pages, _ := filepath.Glob(filepath.Join(site, "compare-*.html"))
	if len(pages) != 1 {
		t.Fatalf("%d compare pages, want 1: %v\n%s", len(pages), pages, errs)
	}
	page, _ := os.ReadFile(pages[0])
	if n := strings.Count(string(page), `href="run-`); n != 2 {
		t.Errorf("the compare page links %d runs, want the 2 of one task", n)
	}
	if strings.Contains(string(page), "ghp_") || strings.Contains(pages[0], "ghp_") {
		t.Error("the compare page shows the id's secret")
	}
}

// export site writes only into a directory that is empty, new or its own
// site, and never through a name placed there: a link, a FIFO or
// /dev/null at a name it chooses is refused (the link's target is left as
// it was), not written through or waited on.
func TestSiteDirectoryIsItsOwn(t *testing.T) {
	run := demoTraj
	base := t.TempDir()
	foreign := filepath.Join(base, "docs")
	os.MkdirAll(foreign, 0o755)
	write(t, filepath.Join(foreign, "index.html"), "<html>my notes</html>")
	if code, _, errs := exec(t, "export", "site", run, "-o", foreign); code == 0 || !strings.Contains(errs, "no index.html trajscope wrote") {
		t.Errorf("a foreign directory: exit %d: %s", code, errs)
	}
	if b, _ := os.ReadFile(filepath.Join(foreign, "index.html")); string(b) != "<html>my notes</html>" {
		t.Error("the foreign index was replaced")
	}

	site := filepath.Join(base, "site")
	if code, _, errs := exec(t, "export", "site", run, "-o", site); code != 0 {
		t.Fatalf("a new directory: exit %d: %s", code, errs)
	}
	victim := write(t, filepath.Join(base, "victim.txt"), "keep me")
	index, _ := os.ReadFile(filepath.Join(site, "index.html"))
	for _, c := range []struct {
		name string
		put  func(path string) error
	}{
		{"a link out of the site", func(p string) error { return os.Symlink(victim, p) }},
		{"a link to /dev/null", func(p string) error { return os.Symlink("/dev/null", p) }},
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o600) }},
	} {
		for _, name := range []string{"run-1.html", "index.html"} {
			p := filepath.Join(site, name)
			os.Remove(p)
			if err := c.put(p); err != nil {
				t.Skipf("%s: %v", c.name, err)
			}
			code, _, errs := exec(t, "export", "site", run, "-o", site)
			// At index.html the directory is no longer known as a site:
			// refused either way, nothing written through.
			if code == 0 || !strings.Contains(errs, "not written through") && !(name == "index.html" && strings.Contains(errs, "no index.html trajscope wrote")) {
				t.Errorf("%s at %s: exit %d: %s", c.name, name, code, errs)
			}
			os.Remove(p)
			os.WriteFile(filepath.Join(site, "index.html"), index, 0o644)
		}
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the link's target was written: %.60q", b)
	}
	// Its own site, rewritten, is fine.
	if code, _, errs := exec(t, "export", "site", run, "-o", site); code != 0 {
		t.Errorf("its own site again: exit %d: %s", code, errs)
	}
}

// A Codex child thread's cat of a path holding a GitHub token and an AWS
// key id shows neither on the page or the site with --redact (issue 48
// #4: both leaked there).
func TestRedactCodexChildThreadPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "day")
	os.MkdirAll(dir, 0o755)
	ghp, akia := "ghp_16C7e42F292c6912E7710c838347Ae178B4a", "AKIAIOSFODNN7EXAMPLE"
	lead := `{"timestamp": "2026-07-01T10:00:00Z", "type": "session_meta", "payload": {"id": "11111111-1111-4111-8111-111111111111", "timestamp": "2026-07-01T10:00:00Z", "cwd": "/repo"}}` + "\n" +
		`{"timestamp": "2026-07-01T10:00:01Z", "type": "response_item", "payload": {"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": \"ls\"}", "call_id": "c_0"}}` + "\n" +
		`{"timestamp": "2026-07-01T10:00:02Z", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c_0", "output": "src"}}` + "\n"
	child := `{"timestamp": "2026-07-01T10:00:03Z", "type": "session_meta", "payload": {"id": "22222222-2222-4222-8222-222222222222", "timestamp": "2026-07-01T10:00:03Z", "cwd": "/repo", "source": {"subagent": {"thread_spawn": {"parent_thread_id": "11111111-1111-4111-8111-111111111111", "depth": 1, "agent_role": "auditor"}}}}}` + "\n" +
		`{"timestamp": "2026-07-01T10:00:04Z", "type": "response_item", "payload": {"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": \"cat /repo/keys/` + ghp + `/` + akia + `.txt\"}", "call_id": "c_1"}}` + "\n" +
		`{"timestamp": "2026-07-01T10:00:05Z", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c_1", "output": "x = 1\ny = 2"}}` + "\n"
	leadPath := write(t, filepath.Join(dir, "rollout-2026-07-01T10-00-00-11111111-1111-4111-8111-111111111111.jsonl"), lead)
	write(t, filepath.Join(dir, "rollout-2026-07-01T10-00-03-22222222-2222-4222-8222-222222222222.jsonl"), child)
	out := t.TempDir()
	page, site := filepath.Join(out, "run.html"), filepath.Join(out, "site")
	_, plain, _ := exec(t, "view", leadPath, "--json")
	if !strings.Contains(plain, akia) {
		t.Fatalf("the child's read is not in the run: nothing to redact\n%.800s", plain)
	}
	for _, args := range [][]string{{"export", leadPath, "--redact", "-o", page}, {"export", "site", leadPath, "--redact", "-o", site}} {
		if code, _, errs := exec(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			b, _ := os.ReadFile(p)
			if strings.Contains(string(b), ghp[:20]) || strings.Contains(string(b), akia) {
				t.Errorf("%s shows the secret of a child thread's path", filepath.Base(p))
			}
		}
		return nil
	})
}
