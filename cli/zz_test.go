package cli

import (
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

func TestZZBomb(t *testing.T) {
	done := make(chan struct{})
	written := false
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > 250<<20 && !written {
				f, _ := os.Create("/tmp/bombheap.prof")
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
				written = true
				t.Logf("profile at %d MB", m.HeapAlloc>>20)
			}
		}
	}()
	runtime.MemProfileRate = 64 << 10
	code := Execute([]string{"score", "--gold", "/tmp/many.parquet", "--pred", "/tmp/bomb/preds.jsonl", "--repo", "/tmp/bomb", "--format", "text"}, Env{Stdout: io.Discard, Stderr: io.Discard})
	close(done)
	t.Logf("code %d", code)
}
