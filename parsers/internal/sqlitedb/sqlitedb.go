// Package sqlitedb reads the SQLite databases agents keep their sessions
// in (Goose's sessions.db, OpenCode's opencode.db): opened read-only while
// the agent may be writing them, rows read by column name so the schemas
// of older versions, which lack some columns, read too.
package sqlitedb

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
)

// Magic starts every SQLite database file.
var Magic = []byte("SQLite format 3\x00")

// Sniff reports whether head starts an SQLite database whose schema (on
// its first page) names every one of words.
func Sniff(head []byte, words ...string) bool {
	if !bytes.HasPrefix(head, Magic) {
		return false
	}
	for _, w := range words {
		if !bytes.Contains(head, []byte(w)) {
			return false
		}
	}
	return true
}

// Open opens the database at path read-only: a regular file, waited on
// for at most 2 s while its writer holds it.
func Open(path string) (*sql.DB, error) {
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

// Row is one row by column name.
type Row map[string]any

// Text is a column as text, "" when absent or NULL.
func (r Row) Text(col string) string {
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

// JSON is a column holding JSON text, nil when absent or not valid JSON.
func (r Row) JSON(col string) json.RawMessage {
	var b []byte
	switch v := r[col].(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	}
	if !json.Valid(b) {
		return nil
	}
	return b
}

// Int is an integer column, nil when absent or not an integer.
func (r Row) Int(col string) *int64 {
	if v, ok := r[col].(int64); ok {
		return &v
	}
	return nil
}

// Time reads a time column: the driver gives a declared TIMESTAMP as a
// time; else SQLite's datetime() text (UTC) or RFC 3339; an integer is
// milliseconds since the epoch when ms, else seconds. Zero when none.
func (r Row) Time(col string, ms bool) time.Time {
	switch v := r[col].(type) {
	case time.Time:
		return v
	case int64:
		if ms {
			return time.UnixMilli(v).UTC()
		}
		return time.Unix(v, 0).UTC()
	}
	for _, layout := range []string{time.DateTime, "2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano} {
		if t, err := time.Parse(layout, r.Text(col)); err == nil {
			return t
		}
	}
	return time.Time{}
}

// Each runs query and gives fn each row by column name.
func Each(db *sql.DB, query string, args []any, fn func(Row) error) error {
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
		r := make(Row, len(cols))
		for i, c := range cols {
			r[c] = vals[i]
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Sessions reads the database at path a session at a time: query lists
// the sessions (what names the table, for the error when it is not
// there), and read makes one run of each. A session read cannot make is
// left out and said in the error; the others are read.
func Sessions(path, what, query string, read func(db *sql.DB, session Row) (model.Run, error)) ([]model.Run, error) {
	db, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var sessions []Row
	if err := Each(db, query, nil, func(r Row) error {
		sessions = append(sessions, r)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("%s: expected %s: %w", path, what, err)
	}
	var runs []model.Run
	var bad []string
	for _, s := range sessions {
		run, err := read(db, s)
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

// List runs query on the database at path and makes a T of each row.
func List[T any](path, query string, of func(Row) T) ([]T, error) {
	db, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var out []T
	if err := Each(db, query, nil, func(r Row) error {
		out = append(out, of(r))
		return nil
	}); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
