package gold

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
)

// hostileParquet writes a valid two-row hub export, lets edit change its
// footer metadata, and writes the file back with the new footer.
func hostileParquet(t *testing.T, edit func(*format.FileMetaData)) []byte {
	t.Helper()
	var buf bytes.Buffer
	rows := []hubRow{{InstanceID: ptr("A"), GoldContext: ptr("[]")}, {InstanceID: ptr("B"), GoldContext: ptr("[]")}}
	if err := parquet.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	body, footer := data[:len(data)-8-n], data[len(data)-8-n:len(data)-8]
	var md format.FileMetaData
	if err := thrift.Unmarshal(new(thrift.CompactProtocol), footer, &md); err != nil {
		t.Fatal(err)
	}
	edit(&md)
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		t.Fatal(err)
	}
	out := append(append([]byte(nil), body...), footer...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(footer)))
	return append(out, "PAR1"...)
}

// TestHostileParquet: a footer that lies about sizes gives an error naming
// the file at once, instead of a multi-gigabyte allocation (parquet-go
// allocates what the footer claims before checking it).
func TestHostileParquet(t *testing.T) {
	dir := t.TempDir()
	valid := hostileParquet(t, func(*format.FileMetaData) {})
	hugeFooter := append([]byte(nil), valid...)
	binary.LittleEndian.PutUint32(hugeFooter[len(hugeFooter)-8:], 0xfffffff0)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"footer.parquet", hugeFooter, "not a readable parquet file: footer length 4294967280 exceeds the"},
		{"short.parquet", []byte("PAR1PAR1"), "not a readable parquet file: 8 bytes is too short for a parquet file"},
		{"rows.parquet", hostileParquet(t, func(md *format.FileMetaData) { md.NumRows = 1 << 40 }),
			"the file claims 1099511627776 rows; a gold file holds at most 262144"},
		{"negative.parquet", hostileParquet(t, func(md *format.FileMetaData) { md.NumRows = -1 }),
			"not a readable parquet file: invalid file metadata: num_rows=-1 is negative"},
		{"group.parquet", hostileParquet(t, func(md *format.FileMetaData) { md.RowGroups[0].NumRows = 1 << 40 }),
			"row group 0 claims 1099511627776 rows, more than the file's 2"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p)
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v; want %q", c.name, err, c.want)
		}
	}
	// The unedited file still loads: the checks refuse only lies.
	p := filepath.Join(dir, "valid.parquet")
	os.WriteFile(p, valid, 0o644)
	if s, err := Load(p); err != nil || s.Len() != 2 {
		t.Errorf("valid file: %v, %d rows", err, s.Len())
	}
}

// TestDeepNestingGold: 100,000 levels of nesting in each gold form fail
// with an error naming the file and the place, without exhausting the stack.
func TestDeepNestingGold(t *testing.T) {
	deep := strings.Repeat("[", 100000)
	dir := t.TempDir()
	cases := []struct{ name, content, want string }{
		{"gold.json", deep, ":1:1002: invalid JSON: nesting deeper than 1000"},
		{"gold.jsonl", deep + "\n", ":1: invalid JSON at column 1002: nesting deeper than 1000 (row skipped)"},
		{"row.json", `{"inst_id": "a", "gold_ctx": ` + deep, ":1:1030: invalid JSON: nesting deeper than 1000"},
		{"annot/x/annot.json", deep, ":1: invalid JSON at column 1002: nesting deeper than 1000 (row skipped)"},
		{"task/tests/ground_truth.json", `{"files": ` + deep, ":1:1011: invalid JSON: nesting deeper than 1000"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		arg := p
		if strings.HasPrefix(c.name, "annot/") {
			arg = filepath.Join(dir, "annot")
		}
		_, err := Load(arg)
		if err == nil || !strings.Contains(err.Error(), p+c.want) {
			t.Errorf("%s: err = %v; want %q after the file", c.name, err, c.want)
		}
	}
}
