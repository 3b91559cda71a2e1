//go:build !promises

package cli

// The sizes of the largest generated inputs: the same paths at a tenth of
// the size in `go test ./...`; scripts/promises (build tag promises) runs
// them at full size.
const (
	bigSourceLines = 100000
	hugeTrajBytes  = 10 << 20
)
