package scoring

import "github.com/trajscope/trajscope/model"

// ResetDefsCache empties the process-wide definitions cache, so a benchmark
// iteration starts cold.
func ResetDefsCache() {
	defsCache.mu.Lock()
	defer defsCache.mu.Unlock()
	defsCache.m = map[memKey]*defsEntry{}
	defsCache.order, defsCache.size = nil, 0
}

// EnableDefsCache turns the process-wide definitions cache on or off and
// returns the previous setting; not safe while scoring runs.
func EnableDefsCache(on bool) bool {
	prev := defsCache.enabled
	defsCache.enabled = on
	return prev
}

// CloneGold is cloneGold, for the test that it shares nothing.
func CloneGold(g *model.Gold) model.Gold { return cloneGold(g) }
