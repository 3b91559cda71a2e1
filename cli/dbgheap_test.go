package cli

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/trajscope/trajscope/ui"
)

func TestDbgHeap(t *testing.T) {
	set := openSet(t, "/tmp/g7f/s.jsonl")
	st, _ := set.Follow(1)
	for set.Behind() {
		st, _ = set.Follow(1)
	}
	m, _ := ui.New(st, ui.Options{Live: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.View()
	st, _ = set.Follow(1)
	m.Update(ui.LiveMsg{St: st})
	m.View()
	runtime.GC()
	f, _ := os.Create("/tmp/heap.prof")
	pprof.WriteHeapProfile(f)
	f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Log(ms.HeapAlloc>>20, "MB")
	runtime.KeepAlive(m)
	runtime.KeepAlive(set)
}
