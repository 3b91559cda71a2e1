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
	"net/url"
	"os"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/goose"
)

// Name is the format name used by detection and --format.
const Name = "goose-db"

// magic starts every SQLite database file.
var magic = []byte("SQLite format 3\x00")

// Sniff reports whether a file is Goose's session database: an SQLite file
// whose schema (on its first page) has Goose's messages table, or one named
// as Goose names it (in WAL mode the schema may sit in the -wal file
// beside it until a checkpoint, the file itself still empty).
func Sniff(name string, head []byte) bool {
	if name == "sessions.db" {
		return len(head) == 0 || bytes.HasPrefix(head, magic)
	}
	return bytes.HasPrefix(head, magic) && bytes.Contains(head, []byte("content_json")) && bytes.Contains(head, []byte("working_dir"))
}

// Session is one session of the database, as Sessions lists it.
type Session struct {
	ID, WorkingDir, Type string
	// Created and Updated are when Goose began it and last wrote it
	// (zero when not recorded).
	Created, Updated time.Time
}

// open opens the database at path read-only.
func open(path string) (*sql.DB, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	u := url.URL{Scheme: "file", Path: path, RawQuery: "mode=ro&_pragma=busy_timeout(2000)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// Sessions lists the database's sessions, oldest first.
func Sessions(path string) ([]Session, error) {
	db, err := open(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var out []Session
	err = eachRow(db, "SELECT * FROM sessions ORDER BY created_at, id", nil, func(r row) error {
		out = append(out, Session{ID: r.text("id"), WorkingDir: r.text("working_dir"), Type: r.text("session_type"), Created: r.time("created_at"), Updated: r.time("updated_at")})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// Load reads every session of the database at path, oldest first, a run
// each. A session that cannot be read is left out and said in the error,
// the others read.
func Load(path string) ([]model.Run, error) {
	db, err := open(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var sessions []row
	if err := eachRow(db, "SELECT * FROM sessions ORDER BY created_at, id", nil, func(r row) error {
		sessions = append(sessions, r)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("%s: expected Goose's sessions table: %w", path, err)
	}
	var runs []model.Run
	var bad []string
	for _, s := range sessions {
		run, err := session(db, path, s)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		runs = append(runs, run)
	}
	if len(bad) > 0 {
		err = fmt.Errorf("%s: %s", path, strings.Join(bad, "; "))
	}
	return runs, err
}

// session reads one session into the export's shape and reads that.
func session(db *sql.DB, path string, s row) (model.Run, error) {
	id := s.text("id")
	doc := map[string]any{"id": id, "working_dir": s.text("working_dir"), "name": s.text("name")}
	if in, out := s.int("accumulated_input_tokens"), s.int("accumulated_output_tokens"); in != nil || out != nil {
		doc["accumulated_usage"] = map[string]any{"input_tokens": in, "output_tokens": out}
	}
	conv := []map[string]any{} // a session begun holds none yet
	size := 0
	err := eachRow(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", []any{id}, func(r row) error {
		content := r.raw("content_json")
		if size += len(content); size > model.MaxFileBytes {
			return fmt.Errorf("its messages pass %d MB", model.MaxFileBytes>>20)
		}
		if !json.Valid(content) {
			content = json.RawMessage("[]") // said by the reader as a message without content
		}
		m := map[string]any{"role": r.text("role"), "content": json.RawMessage(content)}
		if ts := r.int("created_timestamp"); ts != nil {
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

// row is one row by column name: schemas of older Goose versions lack
// some columns, which read as absent.
type row map[string]any

func (r row) text(col string) string {
	switch v := r[col].(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case nil:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// time reads a time column: the driver gives a declared TIMESTAMP as a
// time; else SQLite's datetime() text (UTC) or RFC 3339.
func (r row) time(col string) time.Time {
	if t, ok := r[col].(time.Time); ok {
		return t
	}
	for _, layout := range []string{time.DateTime, "2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano} {
		if t, err := time.Parse(layout, r.text(col)); err == nil {
			return t
		}
	}
	return time.Time{}
}

func (r row) raw(col string) json.RawMessage {
	switch v := r[col].(type) {
	case string:
		return json.RawMessage(v)
	case []byte:
		return json.RawMessage(v)
	}
	return nil
}

func (r row) int(col string) *int64 {
	if v, ok := r[col].(int64); ok {
		return &v
	}
	return nil
}

// eachRow runs query and gives fn each row by column name.
func eachRow(db *sql.DB, query string, args []any, fn func(row) error) error {
	rows, err := db.Query(query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		r := make(row, len(cols))
		for i, c := range cols {
			r[c] = vals[i]
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}
