// Package report reads scoring results (upstream --out JSONL and trajscope's
// `score --format json` documents), summarises them per run with every
// aggregate definition labelled, compares two runs on matched instances
// (bootstrap intervals, permutation tests), splits runs by language or
// benchmark split, tallies the gold most runs missed and cost against
// coverage, and renders the tables as markdown, CSV or JSON and the charts
// as SVG. It knows nothing of terminals; untrusted text is neutralised when
// rendered.
package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// Instance is one result row.
type Instance struct {
	// Result is the row as the evaluator wrote it (Error set for an error
	// row, nothing else then).
	Result model.Result
	// Extras holds trajscope's per-instance analysis when the row came from
	// a `score --format json` document; nil for upstream JSONL.
	Extras *Extras
	// Where locates the row in its file, for messages ("line 3").
	Where string
}

// ResultFile is one results file (an upstream --out or a score --format json
// document), labelled for the tables: one agent run over many instances.
type ResultFile struct {
	// Label names the run in tables: given as LABEL=PATH, else the file name
	// without its extension.
	Label string
	Path  string
	// Format is "jsonl" (upstream --out) or "json" (trajscope document).
	Format    string
	Instances []Instance
	// LeftOut counts the rows LeaveOutInfra removed.
	LeftOut int
}

// ReadFile reads one result file.
func ReadFile(path, label string) (*ResultFile, error) {
	b, err := inputfile.Read(path)
	if err != nil {
		return nil, err
	}
	if label == "" {
		label = DefaultLabel(path)
	}
	run := &ResultFile{Label: label, Path: path}
	run.Instances, run.Format, err = Parse(b, path)
	if err != nil {
		return nil, err
	}
	return run, nil
}

// DefaultLabel is a file's name without directory and extension.
func DefaultLabel(path string) string {
	base := filepath.Base(path)
	for _, ext := range []string{".jsonl", ".json", ".ndjson"} {
		if strings.HasSuffix(strings.ToLower(base), ext) && len(base) > len(ext) {
			return base[:len(base)-len(ext)]
		}
	}
	return base
}

// Parse reads result rows from a file's bytes; name is used in errors. A
// document whose top-level object has "results" is a trajscope JSON
// document; a top-level array is a list of rows; anything else is read as
// JSONL, one row per non-blank line.
func Parse(b []byte, name string) ([]Instance, string, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) == 0 {
		return nil, "", fmt.Errorf("%s: empty file, expected result rows (JSONL) or a trajscope JSON document", name)
	}
	switch trimmed[0] {
	case '[':
		ins, _, err := parseArray(b, b, 0, name, "")
		return ins, "json", err
	case '{':
		if ins, ok, err := parseDocumentFast(b, name); ok {
			return ins, "json", err
		}
		var probe map[string]json.RawMessage
		dec := json.NewDecoder(bytes.NewReader(b))
		if dec.Decode(&probe) == nil {
			if raw, ok := probe["results"]; ok {
				ins, _, err := parseArray(b, raw, bytes.Index(b, raw), name, "results")
				return ins, "json", err
			}
			if _, ok := probe["instance_id"]; !ok {
				return nil, "", fmt.Errorf(`%s:%d: a JSON object with neither "results" nor "instance_id": expected upstream result rows (JSONL) or a 'trajscope score --format json' document`, name, lineOf(b, bytes.IndexByte(b, '{')))
			}
		}
	default:
		return nil, "", fmt.Errorf("%s:%d: expected a JSON object per line or a trajscope JSON document, found %q", name, lineOf(b, bytes.IndexByte(b, trimmed[0])), firstRune(trimmed))
	}
	ins, err := parseJSONL(b, name)
	return ins, "jsonl", err
}

func firstRune(b []byte) string {
	s := string(b)
	for _, r := range s {
		return string(r)
	}
	return ""
}

func parseJSONL(b []byte, name string) ([]Instance, error) {
	var out []Instance
	for i, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		where := fmt.Sprintf("line %d", i+1)
		in, err := parseRow(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		in.Where = where
		out = append(out, in)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no result rows", name)
	}
	return out, nil
}

// parseDocumentFast reads a trajscope document whose top-level object is
// valid JSON with one "results" member, in one pass over the rows: the keys
// are walked up to "results", its array read in place, and the members after
// it checked. ok is false for anything else (a JSONL line, another object,
// invalid JSON, "results" twice), which the caller reads the slow way, with
// its own errors.
func parseDocumentFast(b []byte, name string) (ins []Instance, ok bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false, nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, false, nil
		}
		if key != "results" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil, false, nil
			}
			continue
		}
		// The value starts after the colon and any space.
		base := int(dec.InputOffset())
		base += len(b[base:]) - len(bytes.TrimLeft(b[base:], " \t\r\n:"))
		if base >= len(b) || b[base] != '[' {
			return nil, false, nil // not an array: the slow way says so
		}
		ins, end, err := parseArray(b, b[base:], base, name, "results")
		if err != nil {
			return nil, true, err
		}
		// What follows the array must close the object validly, without a
		// second "results" (which would win, as in encoding/json).
		rest := bytes.TrimLeft(b[base+end:], " \t\r\n")
		var after map[string]json.RawMessage
		switch {
		case len(rest) > 0 && rest[0] == '}':
		case len(rest) > 0 && rest[0] == ',' &&
			json.NewDecoder(bytes.NewReader(append([]byte{'{'}, rest[1:]...))).Decode(&after) == nil:
			if _, twice := after["results"]; twice {
				return nil, false, nil
			}
		default:
			return nil, false, nil
		}
		return ins, true, nil
	}
	return nil, false, nil
}

// parseArray reads a JSON array of rows (arr, found at byte base of the file
// b), locating each by index, line and byte: a document is usually one line.
// end is the offset in arr just past the array.
func parseArray(b, arr []byte, base int, name, field string) (ins []Instance, end int, err error) {
	dec := json.NewDecoder(bytes.NewReader(arr))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return nil, 0, fmt.Errorf("%s: %s is not a JSON array of result rows", name, orDefault(field, "the file"))
	}
	at := func(i int, off int64) string {
		abs := base + int(off)
		return fmt.Sprintf("%s:%d: result %d (byte %d)", name, lineOf(b, abs), i+1, abs)
	}
	var out []Instance
	for i := 0; dec.More(); i++ {
		off := dec.InputOffset()
		// One pass a row: decoded straight into its fields. A syntax error
		// is placed where the decoder stood, a type error at the row.
		var row rowJSON
		err := dec.Decode(&row)
		var te *json.UnmarshalTypeError
		if err != nil && !errors.As(err, &te) {
			return nil, 0, fmt.Errorf("%s: %v", at(i, off), jsonErr(err))
		}
		// Decode stops after the value; skip the separator's whitespace so
		// the offset names the row itself.
		off += int64(len(arr[off:]) - len(bytes.TrimLeft(arr[off:], " \t\r\n,")))
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", at(i, off), jsonErr(err))
		}
		in, err := rowFromJSON(&row)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", at(i, off), err)
		}
		in.Where = fmt.Sprintf("result %d", i+1)
		out = append(out, in)
	}
	if _, err := dec.Token(); err != nil {
		return nil, 0, fmt.Errorf("%s: %s: unterminated array: %v", name, orDefault(field, "the file"), jsonErr(err))
	}
	if len(out) == 0 {
		return nil, 0, fmt.Errorf("%s: no result rows", name)
	}
	return out, int(dec.InputOffset()), nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return `"` + s + `"`
}

// lineOf is the 1-based line of byte offset off.
func lineOf(b []byte, off int) int {
	if off < 0 {
		off = 0
	}
	return bytes.Count(b[:min(off, len(b))], []byte("\n")) + 1
}

// measureJSON and friends mirror the upstream row.
type measureJSON struct {
	Coverage     *float64 `json:"coverage"`
	Precision    *float64 `json:"precision"`
	Intersection int      `json:"intersection"`
	GoldSize     int      `json:"gold_size"`
	PredSize     int      `json:"pred_size"`
}

type rowJSON struct {
	InstanceID *string                            `json:"instance_id"`
	Error      *string                            `json:"error"`
	NumSteps   int                                `json:"num_steps"`
	Final      *model.ByGranularity[*measureJSON] `json:"final"`
	Trajectory *struct {
		Steps []struct {
			Step     int                            `json:"step"`
			Coverage *model.ByGranularity[*float64] `json:"coverage"`
		} `json:"steps"`
		AUC        *model.ByGranularity[*float64] `json:"auc_coverage"`
		Redundancy *model.ByGranularity[*float64] `json:"redundancy"`
	} `json:"trajectory"`
	EditLoc *struct {
		Recall       float64 `json:"recall"`
		Precision    float64 `json:"precision"`
		Intersection int     `json:"intersection"`
		GoldSize     int     `json:"gold_size"`
		PredSize     int     `json:"pred_size"`
	} `json:"editloc"`
	Trajscope *Extras `json:"trajscope"`
	// Lens and FinalStandIn are what score writes on observed-lens rows
	// (scoring.AppendResultJSON); the evaluator's rows have neither.
	Lens         *string `json:"lens"`
	FinalStandIn bool    `json:"final_stand_in"`
	// AtK is score --at-k's coverage by rank: granularity -> k -> value.
	AtK map[string]map[string]*float64 `json:"at_k"`
}

// parseRow validates one row and converts it.
func parseRow(b []byte) (Instance, error) {
	var row rowJSON
	if err := json.Unmarshal(b, &row); err != nil {
		return Instance{}, jsonErr(err)
	}
	return rowFromJSON(&row)
}

// rowFromJSON checks a decoded row and converts it.
func rowFromJSON(row *rowJSON) (Instance, error) {
	if row.InstanceID == nil {
		return Instance{}, errors.New(`expected a result row with "instance_id"`)
	}
	in := Instance{Result: model.Result{InstanceID: *row.InstanceID, FinalStandIn: row.FinalStandIn}, Extras: row.Trajscope}
	r := &in.Result
	if row.Lens != nil {
		l, err := model.ParseLens(*row.Lens)
		if err != nil {
			return in, fmt.Errorf("instance %q: \"lens\": %w", *row.InstanceID, err)
		}
		r.Lens = l
	}
	if row.Error != nil {
		r.Error = *row.Error
		if r.Error == "" {
			r.Error = "error"
		}
		return in, nil
	}
	if row.Final == nil {
		return in, fmt.Errorf("instance %q: expected \"final\" (or \"error\")", *row.InstanceID)
	}
	if row.Trajectory == nil || row.Trajectory.AUC == nil || row.Trajectory.Redundancy == nil {
		return in, fmt.Errorf("instance %q: expected \"trajectory\" with \"auc_coverage\" and \"redundancy\"", *row.InstanceID)
	}
	r.NumSteps = row.NumSteps
	if m := row.Final.Symbol; m != nil && m.Coverage == nil && m.Precision == nil {
		// score --semantics fixed writes null symbol figures when a parse
		// ran past its budget: not computable, left out of the means.
		r.SymbolNA = true
	}
	for _, g := range model.Granularities {
		if g == model.GranSymbol && r.SymbolNA {
			continue
		}
		m := *row.Final.At(g)
		if m == nil || m.Coverage == nil || m.Precision == nil {
			return in, fmt.Errorf("instance %q: expected \"final\".%q with \"coverage\" and \"precision\"", *row.InstanceID, g)
		}
		*r.Final.At(g) = model.Measure{Coverage: *m.Coverage, Precision: *m.Precision, Intersection: m.Intersection, GoldSize: m.GoldSize, PredSize: m.PredSize}
		auc, red := *row.Trajectory.AUC.At(g), *row.Trajectory.Redundancy.At(g)
		if auc == nil || red == nil {
			return in, fmt.Errorf("instance %q: expected \"trajectory\" values for %q", *row.InstanceID, g)
		}
		if err := errors.Join(fraction("final."+g.String()+".coverage", *m.Coverage), fraction("final."+g.String()+".precision", *m.Precision),
			size("final."+g.String()+".intersection", m.Intersection), size("final."+g.String()+".gold_size", m.GoldSize),
			size("final."+g.String()+".pred_size", m.PredSize),
			fraction("trajectory.auc_coverage."+g.String(), *auc), fraction("trajectory.redundancy."+g.String(), *red)); err != nil {
			return in, fmt.Errorf("instance %q: %w", *row.InstanceID, err)
		}
		*r.Trajectory.AUCCoverage.At(g) = *auc
		*r.Trajectory.Redundancy.At(g) = *red
	}
	if n := len(row.Trajectory.Steps); n > 0 {
		// Exactly sized: a file's rows are held while it is read (and
		// --compare holds two files).
		r.Trajectory.Steps = make([]model.StepCoverage, 0, n)
	}
	for i, st := range row.Trajectory.Steps {
		sc := model.StepCoverage{Step: st.Step}
		if st.Coverage == nil {
			return in, fmt.Errorf("instance %q: trajectory step %d has no \"coverage\"", *row.InstanceID, i+1)
		}
		for _, g := range model.Granularities {
			v := *st.Coverage.At(g)
			if g == model.GranSymbol && r.SymbolNA && v == nil {
				continue
			}
			if v == nil {
				return in, fmt.Errorf("instance %q: trajectory step %d has no %q coverage", *row.InstanceID, i+1, g)
			}
			if err := fraction(fmt.Sprintf("trajectory step %d %s coverage", i+1, g), *v); err != nil {
				return in, fmt.Errorf("instance %q: %w", *row.InstanceID, err)
			}
			*sc.Coverage.At(g) = *v
		}
		r.Trajectory.Steps = append(r.Trajectory.Steps, sc)
	}
	if e := row.EditLoc; e != nil {
		if err := errors.Join(fraction("editloc.recall", e.Recall), fraction("editloc.precision", e.Precision),
			size("editloc.intersection", e.Intersection), size("editloc.gold_size", e.GoldSize), size("editloc.pred_size", e.PredSize)); err != nil {
			return in, fmt.Errorf("instance %q: %w", *row.InstanceID, err)
		}
		r.EditLoc = &model.EditLoc{Recall: e.Recall, Precision: e.Precision, Intersection: e.Intersection, GoldSize: e.GoldSize, PredSize: e.PredSize}
	}
	if row.AtK != nil {
		atk, err := atKFromJSON(row.AtK, r.SymbolNA)
		if err != nil {
			return in, fmt.Errorf("instance %q: %w", *row.InstanceID, err)
		}
		r.AtK = atk
	}
	return in, nil
}

// atKFromJSON checks and converts a row's "at_k": every granularity with
// the same ranks, each a coverage.
func atKFromJSON(m map[string]map[string]*float64, symbolNA bool) (*model.AtK, error) {
	file := m[model.GranFile.String()]
	if len(file) == 0 || len(file) > scoring.MaxAtK {
		return nil, fmt.Errorf(`"at_k" without ranks (want {"file": {"1": …}, …} with at most %d)`, scoring.MaxAtK)
	}
	out := &model.AtK{}
	for ks := range file {
		k, err := strconv.Atoi(ks)
		if err != nil || k < 1 {
			return nil, fmt.Errorf(`"at_k": rank %q is not a whole number of at least 1`, ks)
		}
		out.K = append(out.K, k)
	}
	sort.Ints(out.K)
	for _, k := range out.K {
		var c model.ByGranularity[float64]
		for _, g := range model.Granularities {
			v := m[g.String()][strconv.Itoa(k)]
			if v == nil {
				if g == model.GranSymbol && symbolNA {
					continue
				}
				return nil, fmt.Errorf(`"at_k": no %s coverage at %d`, g, k)
			}
			if err := fraction(fmt.Sprintf("at_k %s %d", g, k), *v); err != nil {
				return nil, err
			}
			*c.At(g) = *v
		}
		out.Coverage = append(out.Coverage, c)
	}
	return out, nil
}

// maxSize bounds a size in a result row (bytes, lines, symbols or files of
// one instance): a terabyte, so that the sums over any file report reads
// stay far inside int64.
const maxSize = 1 << 40

// fraction checks a coverage, precision, AUC or redundancy: a number in
// [0, 1], as the evaluator writes them.
func fraction(field string, v float64) error {
	if !(v >= 0 && v <= 1) {
		return fmt.Errorf("%s is %v; expected a fraction between 0 and 1", field, v)
	}
	return nil
}

// size checks an intersection or a gold or predicted size.
func size(field string, v int) error {
	if v < 0 || v > maxSize {
		return fmt.Errorf("%s is %d; expected a size between 0 and %d", field, v, int64(maxSize))
	}
	return nil
}

// jsonErr words encoding/json's errors for people.
func jsonErr(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("invalid JSON at byte %d of the row: %v", se.Offset, se)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the row"
		}
		return fmt.Errorf("%s: expected %v, found a JSON %s", field, te.Type, te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("truncated JSON")
	}
	return err
}
