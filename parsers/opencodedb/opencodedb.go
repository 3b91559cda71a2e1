// Package opencodedb reads the sessions OpenCode keeps in SQLite,
// ~/.local/share/opencode/opencode.db (opencode-<channel>.db for other
// channels): a session table (id, parent_id, directory, title, times), a
// message table (session_id, data: the message's info without its ids)
// and a part table (message_id, data: the part without its ids). Each
// session is read into the shape of its export ({info, messages[{info,
// parts[]}]}) and read as an export is (parsers/opencode), one run per
// session, so a live session and its export are the same run. The
// database is opened read-only; OpenCode may be writing it (WAL).
package opencodedb

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/sqlitedb"
	"github.com/trajscope/trajscope/parsers/opencode"
)

// Name is the format name used by detection and --format.
const Name = "opencode-db"

// Named reports a file named as OpenCode names its database.
func Named(name string) bool {
	return name == "opencode.db" || strings.HasPrefix(name, "opencode-") && filepath.Ext(name) == ".db"
}

// Sniff reports whether a file is OpenCode's database: one named as
// OpenCode names it (in WAL mode its schema may sit in the -wal file
// beside it, the file itself still empty), or an SQLite file whose schema
// has OpenCode's part table.
func Sniff(name string, head []byte) bool {
	if Named(name) {
		return len(head) == 0 || bytes.HasPrefix(head, sqlitedb.Magic)
	}
	return sqlitedb.Sniff(head, "message_id", "session_id", "directory", "`part`")
}

// Session is one session of the database, as Sessions lists it.
type Session struct {
	ID, Directory string
	// Parent is the session that started it (a sub-agent's), "" for one
	// the user started.
	Parent string
	// Created and Updated are when it began and was last written.
	Created, Updated time.Time
}

// Sessions lists the database's sessions, oldest first.
func Sessions(path string) ([]Session, error) {
	return sqlitedb.List(path, "SELECT * FROM session ORDER BY time_created, id", func(r sqlitedb.Row) Session {
		return Session{ID: r.Text("id"), Directory: r.Text("directory"), Parent: r.Text("parent_id"),
			Created: r.Time("time_created", true), Updated: r.Time("time_updated", true)}
	})
}

// Load reads every session of the database at path, oldest first, a run
// each. A session that cannot be read is left out and said in the error,
// the others read.
func Load(path string) ([]model.Run, error) {
	return sqlitedb.Sessions(path, "OpenCode's session table", "SELECT * FROM session ORDER BY time_created, id", func(db *sql.DB, s sqlitedb.Row) (model.Run, error) {
		return session(db, path, s)
	})
}

// withIDs is a row's data with the ids the table keeps beside it put back,
// as the export holds them.
func withIDs(data json.RawMessage, ids map[string]string) (map[string]any, error) {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber() // numbers written back as they were: 1767225601000, not 1.767225601e+12
	if err := d.Decode(&m); err != nil || m == nil {
		return nil, fmt.Errorf("expected a JSON object")
	}
	for k, v := range ids {
		if v != "" {
			m[k] = v
		}
	}
	return m, nil
}

// session reads one session into the export's shape and reads that.
func session(db *sql.DB, path string, s sqlitedb.Row) (model.Run, error) {
	id := s.Text("id")
	info := map[string]any{"id": id, "title": s.Text("title"), "directory": s.Text("directory"), "version": s.Text("version")}
	if p := s.Text("parent_id"); p != "" {
		info["parentID"] = p
	}
	if c := s.Int("time_created"); c != nil {
		info["time"] = map[string]any{"created": *c}
	}
	var messages []map[string]any
	byID := map[string]int{}
	size := 0
	grow := func(r sqlitedb.Row) error {
		if size += len(r.Text("data")); size > model.MaxFileBytes {
			return fmt.Errorf("its messages pass %d MB", model.MaxFileBytes>>20)
		}
		return nil
	}
	err := sqlitedb.Each(db, "SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id", []any{id}, func(r sqlitedb.Row) error {
		if err := grow(r); err != nil {
			return err
		}
		m, err := withIDs(r.JSON("data"), map[string]string{"id": r.Text("id"), "sessionID": id})
		if err != nil {
			return fmt.Errorf("message %s: %w", r.Text("id"), err)
		}
		byID[r.Text("id")] = len(messages)
		messages = append(messages, map[string]any{"info": m, "parts": []any{}})
		return nil
	})
	if err == nil {
		err = sqlitedb.Each(db, "SELECT * FROM part WHERE session_id = ? ORDER BY message_id, id", []any{id}, func(r sqlitedb.Row) error {
			if err := grow(r); err != nil {
				return err
			}
			k, ok := byID[r.Text("message_id")]
			if !ok {
				return nil // its message not written yet
			}
			p, err := withIDs(r.JSON("data"), map[string]string{"id": r.Text("id"), "sessionID": id, "messageID": r.Text("message_id")})
			if err != nil {
				return fmt.Errorf("part %s: %w", r.Text("id"), err)
			}
			messages[k]["parts"] = append(messages[k]["parts"].([]any), p)
			return nil
		})
	}
	if err != nil {
		return model.Run{}, fmt.Errorf("session %s: %w", id, err)
	}
	if messages == nil {
		messages = []map[string]any{} // a session begun holds none yet
	}
	data, err := json.Marshal(map[string]any{"info": info, "messages": messages})
	if err != nil {
		return model.Run{}, fmt.Errorf("session %s: %w", id, err)
	}
	runs, err := opencode.ParseRuns(path, data)
	if err != nil || len(runs) == 0 {
		return model.Run{}, fmt.Errorf("session %s: %v", id, err)
	}
	run := runs[0]
	run.Format = Name
	return run, nil
}
