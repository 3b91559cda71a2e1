package report

import (
	"fmt"
	"strings"
	"testing"
)

// A harness report is read as a stream: other keys are passed over, and of
// resolved_ids only the ids the results name are kept (20 million ids
// would otherwise be a map of gigabytes).
func TestReadResolvedKeepsWhatIsWanted(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"unresolved_ids": [`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"u__x-%d"`, i)
	}
	b.WriteString(`], "nested": {"a": [1, {"b": 2}]}, "resolved_ids": [`)
	for i := range 100_000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"r__x-%d"`, i)
	}
	b.WriteString(`]}`)
	want := map[string]bool{"r__x-7": true, "r__x-99999": true, "u__x-1": true}
	got, err := ReadResolved("h.json", strings.NewReader(b.String()), func(id string) bool { return want[id] })
	if err != nil || len(got) != 2 || !got["r__x-7"] || !got["r__x-99999"] {
		t.Errorf("kept %d ids (%v)", len(got), err)
	}
	if _, err := ReadResolved("h.json", strings.NewReader(`{"ids": []}`), nil); err == nil || !strings.Contains(err.Error(), `no "resolved_ids"`) {
		t.Errorf("no list: %v", err)
	}
	if _, err := ReadResolved("h.json", strings.NewReader(`[1]`), nil); err == nil || !strings.Contains(err.Error(), "expected a harness report") {
		t.Errorf("not an object: %v", err)
	}
}
