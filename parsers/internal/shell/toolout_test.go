package shell

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/trajscope/trajscope/model"
)

func TestSearchOutputHits(t *testing.T) {
	bracketed := SearchOutput{ // OpenHands agentskills
		Header:   regexp.MustCompile(`(?m)^\[Found \d+ matches? for "(.*)" in (.+?)\][ \t]*$`),
		End:      "[End of matches",
		DirMatch: regexp.MustCompile(`(?m)^(\S.*?) \(Line (\d+)\):`),
	}
	plain := SearchOutput{ // SWE-agent
		Header:   regexp.MustCompile(`(?m)^Found \d+ matches for "(.*)" in (.+?):[ \t]*$`),
		End:      "End of matches",
		DirMatch: regexp.MustCompile(`(?m)^(.+?) \(\d+ matches\)[ \t]*$`),
	}
	tests := []struct {
		out  SearchOutput
		tool string
		obs  string
		want []model.SearchHit
	}{
		{bracketed, "search_file", "[Found 2 matches for \"x\" in a.py]\nLine 3: x = 1\nLine 9: y(x)\n[End of matches for \"x\" in a.py]\nLine 99: after",
			[]model.SearchHit{{File: "a.py", Line: 3}, {File: "a.py", Line: 9}}},
		{bracketed, "search_dir", "[Found 2 matches for \"x\" in src]\nsrc/a.py (Line 4): x\nsrc/b.py (Line 12): x\n[End of matches for \"x\" in src]",
			[]model.SearchHit{{File: "src/a.py", Line: 4}, {File: "src/b.py", Line: 12}}},
		{plain, "search_dir", "Found 3 matches for \"x\" in /repo:\n/repo/a.py (2 matches)\n/repo/b.py (1 matches)\nEnd of matches for \"x\" in /repo",
			[]model.SearchHit{{File: "/repo/a.py"}, {File: "/repo/b.py"}}},
		{plain, "find_file", "Found 2 matches for \"a.py\" in /repo:\n /repo/a.py\n\n/repo/sub/a.py\n",
			[]model.SearchHit{{File: "/repo/a.py"}, {File: "/repo/sub/a.py"}}},
		{plain, "search_file", "No matches found for \"x\" in a.py", nil},
		{bracketed, "search_file", "Found 1 matches for \"x\" in a.py:\nLine 3: x", nil}, // the other dialect's header
	}
	for _, tt := range tests {
		if got := tt.out.Hits(tt.tool, tt.obs); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s on %q:\n got %+v\nwant %+v", tt.tool, tt.obs, got, tt.want)
		}
	}
}
