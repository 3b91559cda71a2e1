// Package sessions finds the sessions coding agents keep of a directory
// (trajscope watch): Claude Code's and Qwen Code's under their projects
// folders, Codex's rollouts whose recorded working directory is it, Gemini
// CLI's chats of its project, Goose's and OpenCode's sessions of their
// databases whose working directory is it. Only the first bytes of each
// candidate file are read (of a database, its sessions table).
package sessions

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/parsers/goosedb"
	"github.com/trajscope/trajscope/parsers/opencodedb"
)

// Session is one agent session of a directory.
type Session struct {
	Path  string
	Agent string // "claude-code", "codex", "gemini-cli", "qwen-code", "goose", "opencode"
	// Instance names the session within a file of many (Goose's and
	// OpenCode's databases: its id); "" for a file of one session.
	Instance string
	// Modified is when the file was last written; Started when the
	// session began, as its first record says (zero when none says).
	Modified, Started time.Time
	// Commit is the commit the session recorded it started at (Codex
	// does), "" when it records none.
	Commit string
}

// Key tells sessions apart: a file, and the session within it.
func (s Session) Key() string { return s.Path + "#" + s.Instance }

// Homes are where each agent keeps its sessions.
type Homes struct {
	Claude, Codex, Gemini, Qwen, Goose, OpenCode string
}

// DefaultHomes are the agents' folders for a user: $CLAUDE_CONFIG_DIR or
// ~/.claude, $CODEX_HOME or ~/.codex, ~/.gemini, ~/.qwen, and Goose's and
// OpenCode's data folders ($XDG_DATA_HOME/goose, …/opencode; by default
// under ~/.local/share).
func DefaultHomes(getenv func(string) string, home string) Homes {
	h := Homes{Claude: getenv("CLAUDE_CONFIG_DIR"), Codex: getenv("CODEX_HOME"), Gemini: filepath.Join(home, ".gemini"), Qwen: filepath.Join(home, ".qwen")}
	data := filepath.Join(home, ".local", "share")
	if x := getenv("XDG_DATA_HOME"); x != "" {
		data = x
	}
	h.Goose, h.OpenCode = filepath.Join(data, "goose"), filepath.Join(data, "opencode")
	if h.Claude == "" {
		h.Claude = filepath.Join(home, ".claude")
	}
	if h.Codex == "" {
		h.Codex = filepath.Join(home, ".codex")
	}
	return h
}

// maxHead bounds what is read of a candidate to learn its directory and
// start: a session's first records.
const maxHead = 64 << 10

// maxCandidates bounds the files looked at per agent: a home of years of
// sessions is read newest folder first, and this many are plenty.
const maxCandidates = 10000

// Find lists the sessions of dir (an absolute, clean path), newest
// written first.
func Find(dir string, h Homes) []Session { return FindSince(dir, h, time.Time{}) }

// FindSince is Find of the sessions written since a time: the files
// written before it are passed over on their modification time, unread,
// so watch can look for a newer session every few seconds.
func FindSince(dir string, h Homes, since time.Time) []Session {
	var out []Session
	out = append(out, claude(dir, h.Claude, since)...)
	out = append(out, codex(dir, h.Codex, since)...)
	out = append(out, gemini(dir, h.Gemini, since)...)
	out = append(out, qwen(dir, h.Qwen, since)...)
	out = append(out, goose(dir, h.Goose, since)...)
	out = append(out, openCode(dir, h.OpenCode, since)...)
	slices.SortStableFunc(out, func(a, b Session) int { return b.Modified.Compare(a.Modified) })
	return out
}

// qwen lists Qwen Code's sessions of dir: projects/<slug>/chats/*.jsonl,
// each record naming its working directory (cwd), which must be dir (the
// slug's spelling is not relied on).
func qwen(dir, home string, since time.Time) []Session {
	if home == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(home, "projects", "*", "chats", "*.jsonl"))
	files = files[:min(len(files), maxCandidates)]
	var out []Session
	for _, f := range files {
		s, ok := stat(f, "qwen-code", since)
		if !ok {
			continue
		}
		var rec struct {
			Cwd       string `json:"cwd"`
			Timestamp string `json:"timestamp"`
		}
		match := false
		eachHeadLine(f, func(line []byte) bool {
			if json.Unmarshal(line, &rec) != nil || rec.Cwd == "" {
				return true
			}
			match = filepath.Clean(rec.Cwd) == dir
			s.Started, _ = time.Parse(time.RFC3339Nano, rec.Timestamp)
			return false
		})
		if match {
			out = append(out, s)
		}
	}
	return out
}

// openCode lists OpenCode's sessions of dir from its databases
// (opencode.db, opencode-<channel>.db): those its user started (not a
// sub-agent's) whose directory is dir, written since a time. A database
// neither it nor its write-ahead log written since then is passed over
// unread.
func openCode(dir, home string, since time.Time) []Session {
	if home == "" {
		return nil
	}
	dbs, _ := filepath.Glob(filepath.Join(home, "opencode*.db"))
	var out []Session
	for _, db := range dbs {
		written, ok := dbWritten(db)
		if !ok || !opencodedb.Named(filepath.Base(db)) || written.Before(since) {
			continue
		}
		list, err := opencodedb.Sessions(db)
		if err != nil {
			continue
		}
		for _, o := range list {
			if s, ok := stored(db, "opencode", o.ID, o.Directory, dir, o.Created, o.Updated, written, since); ok && o.Parent == "" {
				out = append(out, s)
			}
		}
	}
	return out
}

// dbWritten is when a database file, or its write-ahead log beside it,
// was last written; ok is false when it is not a regular file.
func dbWritten(db string) (time.Time, bool) {
	st, err := os.Stat(db)
	if err != nil || !st.Mode().IsRegular() {
		return time.Time{}, false
	}
	written := st.ModTime()
	if wal, err := os.Stat(db + "-wal"); err == nil && wal.ModTime().After(written) {
		written = wal.ModTime()
	}
	return written, true
}

// goose lists Goose's sessions of dir from its database
// (sessions/sessions.db): those whose working directory is dir, written
// since a time. The database is passed over unread when neither it nor its
// write-ahead log was written since then.
func goose(dir, home string, since time.Time) []Session {
	if home == "" {
		return nil
	}
	db := filepath.Join(home, "sessions", "sessions.db")
	written, ok := dbWritten(db)
	if !ok || written.Before(since) {
		return nil
	}
	list, err := goosedb.Sessions(db)
	if err != nil {
		return nil
	}
	var out []Session
	for _, g := range list {
		if s, ok := stored(db, "goose", g.ID, g.WorkingDir, dir, g.Created, g.Updated, written, since); ok && g.Type != "hidden" {
			out = append(out, s)
		}
	}
	return out
}

// stored is session id of the database db, whose working directory is
// workDir, as a session of dir written since a time (ok false when it is
// another directory's, or older); a session of no recorded time takes the
// database's.
func stored(db, agent, id, workDir, dir string, created, updated, written, since time.Time) (Session, bool) {
	if workDir == "" || filepath.Clean(workDir) != dir {
		return Session{}, false
	}
	s := Session{Path: db, Agent: agent, Instance: id, Modified: updated, Started: created}
	if s.Modified.IsZero() {
		s.Modified = written
	}
	// Goose writes times to the second: one written in the second since
	// began counts.
	return s, !s.Modified.Before(since.Truncate(time.Second))
}

// claude lists Claude Code's sessions of dir: the JSONL files of its
// project folder, named from the path with every character but letters
// and digits made "-" (older versions made only "/" a "-"; both are
// looked for). Sub-agents' transcripts are not sessions.
func claude(dir, home string, since time.Time) []Session {
	var out []Session
	seen := map[string]bool{}
	for _, slug := range []string{nonAlnum().ReplaceAllString(dir, "-"), strings.ReplaceAll(dir, "/", "-")} {
		folder := filepath.Join(home, "projects", slug)
		if seen[folder] {
			continue
		}
		seen[folder] = true
		files, _ := filepath.Glob(filepath.Join(folder, "*.jsonl"))
		for _, f := range files {
			if strings.HasPrefix(filepath.Base(f), "agent-") {
				continue
			}
			s, ok := stat(f, "claude-code", since)
			if !ok {
				continue
			}
			var rec struct {
				Timestamp string `json:"timestamp"`
			}
			eachHeadLine(f, func(line []byte) bool {
				if json.Unmarshal(line, &rec) == nil && rec.Timestamp != "" {
					s.Started, _ = time.Parse(time.RFC3339Nano, rec.Timestamp)
					return false
				}
				return true
			})
			out = append(out, s)
		}
	}
	return out
}

// codex lists Codex rollouts (sessions/YYYY/MM/DD/rollout-*.jsonl) whose
// first record, the session's meta, names dir as its working directory.
// The meta can carry long instructions after the directory, so its
// fields are found in the head rather than the whole line decoded.
func codex(dir, home string, since time.Time) []Session {
	files, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*", "*", "rollout-*.jsonl"))
	slices.Sort(files)
	slices.Reverse(files) // the newest days first
	files = files[:min(len(files), maxCandidates)]
	var out []Session
	for _, f := range files {
		s, ok := stat(f, "codex", since)
		if !ok {
			continue
		}
		head := readHead(f)
		if nl := bytes.IndexByte(head, '\n'); nl >= 0 {
			head = head[:nl] // the meta is the first record
		}
		if !bytes.Contains(head, []byte(`"session_meta"`)) || field(head, cwdRe()) != dir {
			continue
		}
		s.Started, _ = time.Parse(time.RFC3339Nano, field(head, payloadTimeRe()))
		s.Commit = field(head, commitRe())
		out = append(out, s)
	}
	return out
}

var (
	cwdRe         = lazyre.New(`"cwd"\s*:\s*("(?:[^"\\]|\\.)*")`)
	payloadTimeRe = lazyre.New(`"payload"\s*:\s*\{[^{}]*?"timestamp"\s*:\s*("[^"]*")`)
	commitRe      = lazyre.New(`"commit_hash"\s*:\s*("[0-9a-f]{40}")`)
	startTimeRe   = lazyre.New(`"startTime"\s*:\s*("[^"]*")`)
	nonAlnum      = lazyre.New(`[^A-Za-z0-9]`)
)

// field is the JSON string re's first group matches in head, decoded;
// "" when it does not match.
func field(head []byte, re *regexp.Regexp) string {
	m := re.FindSubmatch(head)
	if m == nil {
		return ""
	}
	var v string
	if json.Unmarshal(m[1], &v) != nil {
		return ""
	}
	return v
}

// gemini lists Gemini CLI's chats of dir: tmp/<project>/chats/session-*,
// where the project folder is the SHA-256 of the path, or a folder whose
// chats record that hash as their projectHash.
func gemini(dir, home string, since time.Time) []Session {
	sum := sha256.Sum256([]byte(dir))
	hash := hex.EncodeToString(sum[:])
	files, _ := filepath.Glob(filepath.Join(home, "tmp", "*", "chats", "session-*"))
	files = files[:min(len(files), maxCandidates)]
	var out []Session
	for _, f := range files {
		s, ok := stat(f, "gemini-cli", since)
		if !ok {
			continue
		}
		head := readHead(f)
		if filepath.Base(filepath.Dir(filepath.Dir(f))) != hash && !bytes.Contains(head, []byte(`"projectHash": "`+hash+`"`)) &&
			!bytes.Contains(head, []byte(`"projectHash":"`+hash+`"`)) {
			continue
		}
		s.Started, _ = time.Parse(time.RFC3339Nano, field(head, startTimeRe()))
		out = append(out, s)
	}
	return out
}

// stat is a session of a regular file written since a time, with its
// modification time.
func stat(path, agent string, since time.Time) (Session, bool) {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.ModTime().Before(since) {
		return Session{}, false
	}
	return Session{Path: path, Agent: agent, Modified: st.ModTime()}, true
}

// readHead reads a file's first maxHead bytes.
func readHead(path string) []byte {
	f, err := inputfile.OpenRegular(path) // a FIFO named like a session: not waited on
	if err != nil {
		return nil
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxHead))
	return b
}

// eachHeadLine gives each whole line of the file's head to fn until fn
// returns false.
func eachHeadLine(path string, fn func([]byte) bool) {
	sc := bufio.NewScanner(bytes.NewReader(readHead(path)))
	sc.Buffer(make([]byte, 0, 4096), maxHead)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 && !fn(sc.Bytes()) {
			return
		}
	}
}
