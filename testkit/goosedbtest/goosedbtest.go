// Package goosedbtest writes Goose session databases for tests: the
// schema Goose 1.10+ creates (schema version 5) and a session's messages
// appended as Goose appends them while it works.
package goosedbtest

import (
	"database/sql"
	"encoding/json"
	"testing"
	"time"

	"github.com/trajscope/trajscope/testkit/sqlitetest"
)

// DB is a Goose sessions database being written.
type DB struct {
	t  testing.TB
	db *sql.DB
}

// schema is Goose's, as its session storage creates it.
const schema = `
CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
INSERT INTO schema_version (version) VALUES (5);
CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    description TEXT NOT NULL DEFAULT '',
    user_set_name BOOLEAN DEFAULT FALSE,
    session_type TEXT NOT NULL DEFAULT 'user',
    working_dir TEXT NOT NULL,
    created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    extension_data TEXT DEFAULT '{}',
    total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER,
    accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
    schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT);
CREATE TABLE messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content_json TEXT NOT NULL,
    created_timestamp INTEGER NOT NULL,
    timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
    tokens INTEGER,
    metadata_json TEXT);
CREATE INDEX idx_messages_session ON messages(session_id);
CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
`

// Create makes a database at path with Goose's schema, in WAL mode as
// Goose keeps it.
func Create(t testing.TB, path string) *DB {
	t.Helper()
	return &DB{t, sqlitetest.Create(t, path, schema)}
}

// Session starts a session of working directory dir.
func (d *DB) Session(id, dir string) {
	d.t.Helper()
	if _, err := d.db.Exec(`INSERT INTO sessions (id, name, working_dir) VALUES (?, 'fix', ?)`, id, dir); err != nil {
		d.t.Fatal(err)
	}
}

// Message is one message of an export's conversation[].
type Message struct {
	Role    string          `json:"role"`
	Created int64           `json:"created"`
	Content json.RawMessage `json:"content"`
}

// Conversation is an export's conversation, read from its JSON.
func Conversation(t testing.TB, export []byte) []Message {
	t.Helper()
	var doc struct {
		Conversation []Message `json:"conversation"`
	}
	if err := json.Unmarshal(export, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Conversation
}

// Add appends messages to session id, as Goose adds each when it comes.
func (d *DB) Add(id string, msgs ...Message) {
	d.t.Helper()
	for _, m := range msgs {
		if _, err := d.db.Exec(`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES (?, ?, ?, ?)`,
			id, m.Role, string(m.Content), m.Created); err != nil {
			d.t.Fatal(err)
		}
		if _, err := d.db.Exec(`UPDATE sessions SET updated_at = datetime('now') WHERE id = ?`, id); err != nil {
			d.t.Fatal(err)
		}
	}
}

// Shell is an assistant message asking for the developer extension's
// shell to run command, as Goose writes one (call id).
func Shell(id, command string, created int64) Message {
	call, _ := json.Marshal(map[string]any{"type": "toolRequest", "id": id, "toolCall": map[string]any{"status": "success",
		"value": map[string]any{"name": "developer__shell", "arguments": map[string]any{"command": command}}}})
	return Message{Role: "assistant", Created: created, Content: json.RawMessage("[" + string(call) + "]")}
}

// Prompt is the user's first message.
func Prompt(text string, created int64) Message {
	t, _ := json.Marshal(text)
	return Message{Role: "user", Created: created, Content: json.RawMessage(`[{"type":"text","text":` + string(t) + `}]`)}
}

// Written sets when session id was last written.
func (d *DB) Written(id string, when time.Time) {
	d.t.Helper()
	if _, err := d.db.Exec(`UPDATE sessions SET updated_at = ? WHERE id = ?`, when.UTC().Format(time.DateTime), id); err != nil {
		d.t.Fatal(err)
	}
}
