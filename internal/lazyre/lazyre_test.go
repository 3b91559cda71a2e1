package lazyre

import (
	"regexp"
	"strings"
	"testing"
)

func TestNewCompilesOnceOnFirstUse(t *testing.T) {
	calls := 0
	f := Of(func() *regexp.Regexp { calls++; return regexp.MustCompile(`a+`) })
	if calls != 0 {
		t.Fatalf("compiled before first use")
	}
	first := f()
	if !first.MatchString("caat") || f() != first || calls != 1 {
		t.Errorf("calls %d, want one compilation shared by every call", calls)
	}
}

func TestInvalidPanicsOnUse(t *testing.T) {
	bad := New(`(`)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "missing closing )") {
			t.Errorf("recover = %v", r)
		}
	}()
	bad()
}
