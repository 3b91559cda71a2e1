package same

import "testing"

func TestOf(t *testing.T) {
	a := []int{1, 2, 3}
	b := append([]int(nil), a...)
	for _, c := range []struct {
		name string
		x, y List[int]
		same bool
	}{
		{"the same list", Of(a), Of(a), true},
		{"a copy", Of(a), Of(b), false},
		{"a shorter view", Of(a), Of(a[:2]), false},
		{"a view from the second", Of(a[1:]), Of(a), false},
		{"nil and empty", Of([]int(nil)), Of([]int{}), true},
		{"empty and not", Of(a[:0]), Of(a), false},
	} {
		if got := c.x == c.y; got != c.same {
			t.Errorf("%s: %v, want %v", c.name, got, c.same)
		}
	}
	if !Of([]int(nil)).Empty() || Of(a).Empty() {
		t.Error("Empty")
	}
}
