//go:build promises

package cli

// Full sizes, for scripts/promises (see scale_test.go).
const (
	bigSourceLines = 1000000
	hugeTrajBytes  = 100 << 20
)
