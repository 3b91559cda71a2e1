package keys

import (
	"reflect"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

func helps(bs []key.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Help().Key)
	}
	return out
}

// A pane's own keys come first, and no key is listed twice.
func TestFooterAndFullHelp(t *testing.T) {
	if got, want := helps(Footer(Next, Prev)), helps(common); !reflect.DeepEqual(got, want) {
		t.Errorf("footer of the common keys = %v, want %v", got, want)
	}
	got := helps(Footer(Down, Files))
	want := []string{"j/↓", "f", "l/→", "h/←", "*", "tab", "/", "space", "v", "e", "?", "q"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("footer = %v, want %v", got, want)
	}
	// The stepping group first leaves the reference as it is.
	if got := FullHelp(reference[0]...); !reflect.DeepEqual(got, reference) {
		t.Errorf("help with the stepping keys first differs from the reference")
	}
	groups := FullHelp(Down, Closest)
	if len(groups) != len(reference)+1 || len(groups[2]) != len(reference[1])-1 || len(groups[3]) != len(reference[2])-1 {
		t.Fatalf("groups %v", groups)
	}
	// enter selects a file in one pane and goes to the closest step in
	// another: only the pane's own enter leaves the reference.
	if !contains(groups[2], Select) || contains(groups[3], Closest) {
		t.Errorf("enter: %v / %v", helps(groups[2]), helps(groups[3]))
	}
}

func TestTypeInto(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		k        tea.KeyPressMsg
		want     string
	}{
		{"letter", "ab", tea.KeyPressMsg{Code: 'c', Text: "c"}, "abc"},
		{"wide rune", "a", tea.KeyPressMsg{Code: '界', Text: "界"}, "a界"},
		{"backspace removes one rune", "a界", tea.KeyPressMsg{Code: tea.KeyBackspace}, "a"},
		{"backspace on empty", "", tea.KeyPressMsg{Code: tea.KeyBackspace}, ""},
		{"ctrl chord ignored", "ab", tea.KeyPressMsg{Code: 'w', Text: "w", Mod: tea.ModCtrl}, "ab"},
		{"alt chord ignored", "ab", tea.KeyPressMsg{Code: 'x', Text: "x", Mod: tea.ModAlt}, "ab"},
		{"arrow ignored", "ab", tea.KeyPressMsg{Code: tea.KeyLeft}, "ab"},
	} {
		if got := TypeInto(tc.in, tc.k); got != tc.want {
			t.Errorf("%s: TypeInto(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
