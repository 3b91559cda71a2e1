package goose

import (
	"testing"

	"github.com/trajscope/trajscope/testkit/fuzzmain"
)

// TestMain keeps fuzzing from spending its time minimising (see fuzzmain).
func TestMain(m *testing.M) { fuzzmain.Main(m) }
