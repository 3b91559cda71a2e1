// Package opencodedbtest writes OpenCode session databases for tests: the
// tables OpenCode keeps sessions in (session, message, part; the columns
// its reader uses and their neighbours) and a session's messages and parts
// written as OpenCode writes them while it works.
package opencodedbtest

import (
	"database/sql"
	"encoding/json"
	"testing"

	"github.com/trajscope/trajscope/testkit/sqlitetest"
)

// DB is an OpenCode database being written.
type DB struct {
	t  testing.TB
	db *sql.DB
}

const schema = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (
	id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, slug text NOT NULL,
	directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text,
	cost real DEFAULT 0 NOT NULL, tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL,
	time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE ` + "`part`" + ` (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
`

// Create makes a database at path with OpenCode's tables, in WAL mode as
// OpenCode keeps it.
func Create(t testing.TB, path string) *DB {
	t.Helper()
	return &DB{t, sqlitetest.Create(t, path, schema)}
}

func (d *DB) exec(q string, args ...any) {
	d.t.Helper()
	if _, err := d.db.Exec(q, args...); err != nil {
		d.t.Fatal(err)
	}
}

// Session starts a session of directory dir (parent: the session that
// started it, "" for none) at ms milliseconds since the epoch.
func (d *DB) Session(id, parent, dir string, ms int64) {
	d.t.Helper()
	var p any
	if parent != "" {
		p = parent
	}
	d.exec(`INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'p', ?, ?, ?, 'fix', '1.4.0', ?, ?)`,
		id, p, id, dir, ms, ms)
}

// Message is one message of an export's messages[]: its info and parts.
type Message struct {
	Info  map[string]json.RawMessage   `json:"info"`
	Parts []map[string]json.RawMessage `json:"parts"`
}

// Messages are an export's messages, read from its JSON.
func Messages(t testing.TB, export []byte) []Message {
	t.Helper()
	var doc struct {
		Messages []Message `json:"messages"`
	}
	if err := json.Unmarshal(export, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Messages
}

// Add writes messages of session id with their parts, as OpenCode does:
// the ids in the columns, the rest in data; at ms, one millisecond apart.
func (d *DB) Add(id string, ms int64, msgs ...Message) {
	d.t.Helper()
	for k, m := range msgs {
		var mid string
		json.Unmarshal(m.Info["id"], &mid)
		info := map[string]json.RawMessage{}
		for key, v := range m.Info {
			if key != "id" && key != "sessionID" {
				info[key] = v
			}
		}
		data, _ := json.Marshal(info)
		at := ms + int64(k)
		d.exec(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`, mid, id, at, at, string(data))
		for j, p := range m.Parts {
			part := map[string]json.RawMessage{}
			pid := ""
			json.Unmarshal(p["id"], &pid)
			if pid == "" {
				pid = mid + "_p" + string(rune('a'+j))
			}
			for key, v := range p {
				if key != "id" && key != "sessionID" && key != "messageID" {
					part[key] = v
				}
			}
			data, _ := json.Marshal(part)
			d.exec(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`, pid, mid, id, at, at, string(data))
		}
		d.exec(`UPDATE session SET time_updated = ? WHERE id = ?`, at, id)
	}
}
