package gold

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/parquet-go/parquet-go"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
)

// parquetColumns are the hub-export columns the loader reads. Only these are
// decoded: the export also carries test patches and test lists nobody
// shows; the problem statement is the task the explorer shows. repo_url is read when present; the hub
// export has none (upstream crashes there, we treat it as "").
var parquetColumns = []string{
	"instance_id", "original_inst_id", "repo", "repo_url", "base_commit",
	"gold_context", "patch", "source", "language", "problem_statement",
}

// parquetRow holds one row's column values; present[i] is false for a null.
type parquetRow struct {
	vals    [10]string
	present [10]bool
}

const (
	pqInstanceID = iota
	pqOriginalInstID
	pqRepo
	pqRepoURL
	pqBaseCommit
	pqGoldContext
	pqPatch
	pqSource
	pqLanguage
	pqProblemStatement
)

// readParquet returns the needed columns of every row. parquet-go can panic on
// corrupt input, so a panic becomes an error naming the file.
func readParquet(path string) (rows []parquetRow, err error) {
	f, err := inputfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	defer func() {
		if r := recover(); r != nil {
			rows, err = nil, fmt.Errorf("%s: corrupt parquet file: %v", path, r)
		}
	}()
	if err := checkFooter(f, f.Size()); err != nil {
		return nil, fmt.Errorf("%s: not a readable parquet file: %w", path, err)
	}
	pf, err := parquet.OpenFile(f, f.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable parquet file: %w", path, err)
	}
	if n := pf.NumRows(); n < 0 || n > maxParquetRows {
		return nil, fmt.Errorf("%s: the file claims %d rows; a gold file holds at most %d", path, n, maxParquetRows)
	}
	schema := pf.Schema()
	colIdx := make([]int, len(parquetColumns))
	for i, name := range parquetColumns {
		colIdx[i] = -1
		leaf, ok := schema.Lookup(name)
		if !ok {
			continue
		}
		if leaf.MaxRepetitionLevel != 0 || leaf.Node.Type().Kind() != parquet.ByteArray {
			return nil, fmt.Errorf("%s: column %q: expected an optional string column, found %s", path, name, leaf.Node.Type())
		}
		colIdx[i] = leaf.ColumnIndex
	}
	if colIdx[pqGoldContext] < 0 {
		return nil, fmt.Errorf("%s: no gold_context column; expected the ContextBench hub export", path)
	}
	if colIdx[pqInstanceID] < 0 && colIdx[pqOriginalInstID] < 0 {
		return nil, fmt.Errorf("%s: neither instance_id nor original_inst_id column; expected the ContextBench hub export", path)
	}

	rows = make([]parquetRow, 0, pf.NumRows())
	budget := &decodeBudget{left: maxParquetBytes}
	for gi, rg := range pf.RowGroups() {
		base := len(rows)
		n := int(rg.NumRows())
		if n < 0 || len(rows)+n > int(pf.NumRows()) {
			return nil, fmt.Errorf("%s: row group %d claims %d rows, more than the file's %d", path, gi, n, pf.NumRows())
		}
		rows = append(rows, make([]parquetRow, n)...)
		chunks := rg.ColumnChunks()
		for i, ci := range colIdx {
			if ci < 0 {
				continue
			}
			got, err := readStringColumn(chunks[ci], rows[base:], i, budget)
			if errors.Is(err, errTooMuchText) {
				return nil, fmt.Errorf("%s: %w (at row group %d, column %q)", path, err, gi, parquetColumns[i])
			}
			if err != nil {
				return nil, fmt.Errorf("%s: row group %d, column %q: %w", path, gi, parquetColumns[i], err)
			}
			if got != n {
				return nil, fmt.Errorf("%s: row group %d, column %q: %d values for %d rows", path, gi, parquetColumns[i], got, n)
			}
		}
	}
	return rows, nil
}

// maxParquetRows bounds the rows a gold file may claim: the loader allocates
// its row table from the footer's count before reading a value, and a
// hostile footer can claim billions of rows in a few bytes. The ContextBench
// exports hold about a thousand rows and the largest SWE-bench-style sets a
// few tens of thousands; at this bound a file of tiny rows loaded in about a
// second and 300 MB (2026-11-24).
const maxParquetRows = 1 << 18

// maxParquetBytes bounds the text the columns read decode to, counted once
// per row. Dictionary encoding lets a few kilobytes stand for a value
// repeated on a million rows; every row's gold is then parsed on its own,
// so a repeated value costs its size on each row. The ContextBench exports
// decode to a few megabytes.
const maxParquetBytes = 256 << 20

// errTooMuchText is the error past maxParquetBytes.
var errTooMuchText = fmt.Errorf("the gold columns decode to more than %d MiB of text; a gold file holds at most that (counting a repeated value once per row)", maxParquetBytes>>20)

// decodeBudget is what remains of maxParquetBytes while a file is read.
type decodeBudget struct {
	left int
}

// checkFooter validates the footer length against the file size before
// parquet-go reads it: parquet-go allocates whatever length the last eight
// bytes claim (up to 4 GiB) before checking it against the file.
func checkFooter(f io.ReaderAt, size int64) error {
	if size < 12 {
		return fmt.Errorf("%d bytes is too short for a parquet file", size)
	}
	var tail [8]byte
	if _, err := f.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("footer length %d exceeds the %d-byte file", n, size)
	}
	return nil
}

// readStringColumn stores the values of one column chunk into rows[k].vals[col].
// Equal values share one string, so a dictionary value repeated on many rows
// is held once; each value is charged to budget before it is copied.
func readStringColumn(cc parquet.ColumnChunk, rows []parquetRow, col int, budget *decodeBudget) (int, error) {
	r := parquet.NewColumnChunkValueReader(cc)
	defer r.Close()
	buf := make([]parquet.Value, 64)
	interned := map[string]string{}
	k := 0
	for {
		n, err := r.ReadValues(buf)
		for _, v := range buf[:n] {
			if k >= len(rows) {
				return k + 1, nil
			}
			if !v.IsNull() {
				b := v.ByteArray()
				if budget.left -= len(b); budget.left < 0 {
					return k, errTooMuchText
				}
				s, ok := interned[string(b)]
				if !ok {
					// string() copies: the reader reuses its page buffers.
					s = string(b)
					interned[s] = s
				}
				rows[k].vals[col] = s
				rows[k].present[col] = true
			}
			k++
		}
		if errors.Is(err, io.EOF) {
			return k, nil
		}
		if err != nil {
			return k, err
		}
	}
}

// loadParquet is upstream's _load_parquet: gold_ctx from the gold_context
// string, commit from base_commit, keys instance_id and original_inst_id.
// A row's gold_context is read when its id is asked for (lazy.go).
func loadParquet(path string) (*Set, error) {
	rows, err := readParquet(path)
	if err != nil {
		return nil, err
	}
	l := &lazyRows{path: path, rows: rows, golds: make([]*model.Gold, len(rows)),
		ctx: make([]decodedContext, len(rows)), once: make([]sync.Once, len(rows)), goldOnce: make([]sync.Once, len(rows)),
		byKey: map[string][]int{}}
	for i := range rows {
		for _, key := range [2]string{rows[i].vals[pqInstanceID], rows[i].vals[pqOriginalInstID]} {
			if ix := l.byKey[key]; key != "" && (len(ix) == 0 || ix[len(ix)-1] != i) {
				l.byKey[key] = append(ix, i)
			}
		}
	}
	set := newSet()
	set.lazy = l
	return set, nil
}

// parquetGold is row r's gold without its spans; nil when the row has no id.
func parquetGold(r *parquetRow) *model.Gold {
	g := &model.Gold{
		InstID:         r.vals[pqInstanceID],
		OriginalInstID: r.vals[pqOriginalInstID],
		Repo:           r.vals[pqRepo],
		RepoURL:        r.vals[pqRepoURL],
		Commit:         r.vals[pqBaseCommit],
		Patch:          r.vals[pqPatch],
		Source:         r.vals[pqSource],
		Language:       r.vals[pqLanguage],
		Task:           r.vals[pqProblemStatement],
	}
	g.ID = g.OriginalInstID
	if g.ID == "" {
		g.ID = g.InstID
	}
	if g.ID == "" {
		return nil
	}
	return g
}

// assemble builds the whole set from every row, in row order: the rows
// skipped and why, the rest added as add indexes them.
func (l *lazyRows) assemble(set *Set) {
	l.decodeAll()
	for i := range l.rows {
		g := l.gold(i)
		where := "row " + strconv.Itoa(i+1)
		if g == nil {
			set.problem(&Problem{File: l.path, Where: where, Msg: "no instance_id or original_inst_id", Skipped: true})
			continue
		}
		where += " (" + g.ID + ")"
		d := &l.ctx[i]
		if d.fatal != nil {
			set.problem(&Problem{File: l.path, Where: where + ": " + d.fatal.path, Msg: d.fatal.msg, Skipped: true})
			continue
		}
		if d.warn != "" {
			set.problem(&Problem{File: l.path, Where: where + ": gold_context", Msg: d.warn})
		}
		set.add(g, l.path, 0, where)
	}
}

// decodedContext is one row's gold_context, read.
type decodedContext struct {
	spans    []model.GoldSpan
	textForm bool
	warn     string
	fatal    *rowError
}

// decodeAll reads every row's gold_context not read yet, the rows shared
// among the cores: it is most of loading a parquet gold (BENCHMARKS.md, "A
// gold of the full dataset's size").
func (l *lazyRows) decodeAll() {
	workers := min(runtime.GOMAXPROCS(0), (len(l.rows)+31)/32)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(l.rows) {
					return
				}
				l.decode(i)
			}
		})
	}
	wg.Wait()
}
