// Package sqlitetest makes SQLite databases for tests, as the agents that
// keep their sessions in one make theirs.
package sqlitetest

import (
	"database/sql"
	"testing"

	_ "modernc.org/sqlite"
)

// Create makes a database at path in WAL mode (as Goose and OpenCode keep
// theirs) with schema, closed when the test ends. One connection: writes
// land in the order made.
func Create(t testing.TB, path, schema string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
