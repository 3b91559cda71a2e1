// Package goosedb reads the sessions Goose (1.10 and later) keeps in
// SQLite, ~/.local/share/goose/sessions/sessions.db: a sessions table (id,
// working_dir, name, token counts) and a messages table (session_id, role,
// content_json: the same content[] items a session export holds). Each
// session is read into the export's shape and read as an export is
// (parsers/goose), one run per session, so a live session and its export
// are the same run. The database is opened read-only; Goose may be writing
// it (WAL) while it is read.
package goosedb

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/goose"
	"github.com/trajscope/trajscope/parsers/internal/sqlitedb"
)

// Name is the format name used by detection and --format.
const Name = "goose-db"

// Sniff reports whether a file is Goose's session database: an SQLite file
// whose schema (on its first page) has Goose's messages table, or one named
// as Goose names it (in WAL mode the schema may sit in the -wal file
// beside it until a checkpoint, the file itself still empty).
func Sniff(name string, head []byte) bool {
	if name == "sessions.db" {
		return len(head) == 0 || bytes.HasPrefix(head, sqlitedb.Magic)
	}
	return sqlitedb.Sniff(head, "content_json", "working_dir")
}

// Session is one session of the database, as Sessions lists it.
type Session struct {
	ID, WorkingDir, Type string
	// Created and Updated are when Goose began it and last wrote it
	// (zero when not recorded).
	Created, Updated time.Time
}

// Sessions lists the database's sessions, oldest first.
func Sessions(path string) ([]Session, error) {
	return sqlitedb.List(path, "SELECT * FROM sessions ORDER BY created_at, id", func(r sqlitedb.Row) Session {
		return Session{ID: r.Text("id"), WorkingDir: r.Text("working_dir"), Type: r.Text("session_type"),
			Created: r.Time("created_at", false), Updated: r.Time("updated_at", false)}
	})
}

// Load reads every session of the database at path, oldest first, a run
// each. A session that cannot be read is left out and said in the error,
// the others read.
func Load(path string) ([]model.Run, error) {
	return sqlitedb.Sessions(path, "Goose's sessions table", "SELECT * FROM sessions ORDER BY created_at, id", func(db *sql.DB, s sqlitedb.Row) (model.Run, error) {
		return session(db, path, s)
	})
}

// session reads one session into the export's shape and reads that.
func session(db *sql.DB, path string, s sqlitedb.Row) (model.Run, error) {
	id := s.Text("id")
	doc := map[string]any{"id": id, "working_dir": s.Text("working_dir"), "name": s.Text("name")}
	if in, out := s.Int("accumulated_input_tokens"), s.Int("accumulated_output_tokens"); in != nil || out != nil {
		doc["accumulated_usage"] = map[string]any{"input_tokens": in, "output_tokens": out}
	}
	conv := []map[string]any{} // a session begun holds none yet
	size := 0
	err := sqlitedb.Each(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", []any{id}, func(r sqlitedb.Row) error {
		if size += len(r.Text("content_json")); size > model.MaxFileBytes {
			return fmt.Errorf("its messages pass %d MB", model.MaxFileBytes>>20)
		}
		content := r.JSON("content_json")
		if content == nil {
			content = json.RawMessage("[]") // read as a message without content
		}
		m := map[string]any{"role": r.Text("role"), "content": json.RawMessage(content)}
		if ts := r.Int("created_timestamp"); ts != nil {
			m["created"] = *ts
		}
		conv = append(conv, m)
		return nil
	})
	if err != nil {
		return model.Run{}, fmt.Errorf("session %s: %w", id, err)
	}
	doc["conversation"] = conv
	data, err := json.Marshal(doc)
	if err != nil {
		return model.Run{}, fmt.Errorf("session %s: %w", id, err)
	}
	runs, err := goose.ParseRuns(path, data)
	if err != nil || len(runs) == 0 {
		return model.Run{}, fmt.Errorf("session %s: %v", id, err)
	}
	run := runs[0]
	run.Format = Name
	return run, nil
}
