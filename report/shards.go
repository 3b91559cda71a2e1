package report

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
)

// ShardRecord says which slice of which input a results file holds: what
// `score --shard K/N --out FILE` writes beside FILE (FILE.shard.json), so
// that a report over the shards' files can say when one is missing or
// given twice. The results file itself stays the evaluator's rows.
type ShardRecord struct {
	K int `json:"k"`
	N int `json:"n"`
	// Pred and Gold are the inputs as score was given them, Instances
	// how many instances the whole input held (every shard's slice is of
	// those).
	Pred      string `json:"pred"`
	Gold      string `json:"gold"`
	Instances int    `json:"instances"`
	// Unit, From and To say which records the shard holds when it
	// streamed its slice: the lines (or run files) numbered [From, To)
	// from 1 of the Instances the input has, Records the rows it wrote.
	Unit    string `json:"unit,omitempty"`
	From    int    `json:"from,omitempty"`
	To      int    `json:"to,omitempty"`
	Records int    `json:"records,omitempty"`
	// Results is the results file it describes (set when read).
	Results string `json:"-"`
}

// ShardSuffix names a results file's shard record: FILE + ShardSuffix.
const ShardSuffix = ".shard.json"

// WriteShardRecord writes r for the results file out.
func WriteShardRecord(out string, r ShardRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return os.WriteFile(out+ShardSuffix, append(b, '\n'), 0o644)
}

// ReadShardRecords reads the shard records of the results files args
// name (PATH or LABEL=PATH; FILE.shard.json beside FILE): none for a file
// scored whole.
func ReadShardRecords(args []string) ([]ShardRecord, error) {
	var out []ShardRecord
	for _, arg := range args {
		_, p := splitLabel(arg)
		rp := p + ShardSuffix
		f, err := os.Open(rp)
		if err != nil {
			continue
		}
		var r ShardRecord
		err = json.NewDecoder(io.LimitReader(f, 1<<20)).Decode(&r)
		f.Close()
		if err != nil || r.N < 1 || r.K < 1 || r.K > r.N {
			return nil, fmt.Errorf("%s: not a shard record (want {\"k\": K, \"n\": N, ...} with 1 <= K <= N)", termsafe.Line(rp))
		}
		r.Results = arg
		out = append(out, r)
	}
	return out, nil
}

// JoinShards makes each input scored in shards one results file of the
// report: its shards' rows in slice order, each slice once, in a file
// under dir, labelled as the input's predictions. args come back with the
// shards' files replaced by it where the first of them stood.
// paths names each joined file by the shards' files it holds (for the
// report's "results file" column).
func JoinShards(args []string, recs []ShardRecord, dir string) (joinedArgs []string, paths map[string]string, err error) {
	type input struct {
		pred, gold   string
		n, instances int
	}
	groups := map[input][]ShardRecord{}
	for _, r := range recs {
		in := input{r.Pred, r.Gold, r.N, r.Instances}
		groups[in] = append(groups[in], r)
	}
	joined := map[string]string{} // a shard's arg -> the joined arg ("" once placed)
	k := 0
	for in, rs := range groups {
		sort.SliceStable(rs, func(a, b int) bool { return rs[a].K < rs[b].K })
		k++
		path := filepath.Join(dir, fmt.Sprintf("shards-%d.jsonl", k))
		out, err := os.Create(path)
		if err != nil {
			return nil, nil, err
		}
		last := 0
		for _, r := range rs {
			if r.K == last {
				continue // given twice: CheckShards says so, the rows count once
			}
			last = r.K
			_, p := splitLabel(r.Results)
			f, err := os.Open(p)
			if err == nil {
				_, err = io.Copy(out, f)
				f.Close()
			}
			if err != nil {
				out.Close()
				return nil, nil, err
			}
		}
		if err := out.Close(); err != nil {
			return nil, nil, err
		}
		var held []string
		last = 0
		for _, r := range rs {
			if r.K != last {
				_, p := splitLabel(r.Results)
				held, last = append(held, p), r.K
			}
		}
		if paths == nil {
			paths = map[string]string{}
		}
		paths[path] = strings.Join(held, ", ")
		label := DefaultLabel(in.pred)
		for i, r := range rs {
			joined[r.Results] = ""
			if i == 0 {
				joined[r.Results] = label + "=" + path
			}
		}
	}
	var outArgs []string
	for _, a := range args {
		j, ok := joined[a]
		switch {
		case !ok:
			outArgs = append(outArgs, a)
		case j != "":
			outArgs = append(outArgs, j)
		}
	}
	return outArgs, paths, nil
}

// CheckShards says, for each input scored in shards, which slices are
// missing and which are given twice: a report over them would otherwise
// quietly be of part of the input, or count some of it twice.
func CheckShards(recs []ShardRecord) []string {
	type input struct {
		pred, gold   string
		n, instances int
	}
	groups := map[input][]ShardRecord{}
	var order []input
	for _, r := range recs {
		in := input{r.Pred, r.Gold, r.N, r.Instances}
		if _, ok := groups[in]; !ok {
			order = append(order, in)
		}
		groups[in] = append(groups[in], r)
	}
	var out []string
	for _, in := range order {
		byK := map[int][]string{}
		for _, r := range groups[in] {
			byK[r.K] = append(byK[r.K], r.Results)
		}
		var missing []string
		for k := 1; k <= in.n; k++ {
			if len(byK[k]) == 0 {
				missing = append(missing, fmt.Sprintf("%d/%d", k, in.n))
			}
		}
		what := fmt.Sprintf("the shards of %s (gold %s, %d instances)", termsafe.Line(in.pred), termsafe.Line(in.gold), in.instances)
		if len(missing) > 0 {
			out = append(out, fmt.Sprintf("%s: %d of %d missing: %s", what, len(missing), in.n, strings.Join(missing, ", ")))
		}
		var ks []int
		for k := range byK {
			ks = append(ks, k)
		}
		sort.Ints(ks)
		for _, k := range ks {
			if files := byK[k]; len(files) > 1 {
				for i := range files {
					files[i] = termsafe.Line(files[i])
				}
				out = append(out, fmt.Sprintf("%s: %d/%d given %d times (%s)", what, k, in.n, len(files), strings.Join(files, ", ")))
			}
		}
	}
	return out
}

// Rename shows the results files paths names (JoinShards) by their
// names.
func (r *Report) Rename(paths map[string]string) {
	for i := range r.Rows {
		if name, ok := paths[r.Rows[i].Path]; ok {
			r.Rows[i].Path = name
		}
	}
	for _, run := range r.Runs {
		if name, ok := paths[run.Path]; ok {
			run.Path = name
		}
	}
}
