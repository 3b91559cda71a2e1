// Package viewmem holds the memory tests of the binary (`trajscope view`,
// and `score` on a long run) and nothing else. They measure the peak RSS of the binary in a capped child process,
// and Linux reports a child's peak as at least its parent's own peak (the
// child starts as a copy of the parent), so they need a test process of
// their own that never holds a large input: other packages' tests would
// make every measurement theirs.
package viewmem
