// Sub-agent trajectories: embedded, or in files a step refers to (each
// read once).

package atif

import (
	"path/filepath"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// subagents walks the sub-agent trajectories an observation result refers
// to, right after the call that launched them (action call of agent
// parent; -1 when no call claims the result).
func (w *walker) subagents(res *jsontree.Value, parent int32, call int, depth int, where string) {
	for _, r := range res.Get("subagent_trajectory_ref").Items() {
		ref := r.Object()
		if ref == nil {
			continue
		}
		key := ref.Get("trajectory_id").Text()
		sub := w.embedded[key]
		if sub == nil {
			if sid := ref.Get("session_id").Text(); sid != "" {
				if sub = w.embedded[sid]; sub != nil {
					key = sid
				} else if sub = w.embedded["session:"+sid]; sub != nil {
					key = sub.First("trajectory_id", "session_id")
				}
			}
		}
		if sub != nil {
			if w.used[key] {
				continue
			}
			w.used[key] = true
			w.walked[sub] = true
			ag := w.team.Add(key, model.Agent{Type: sub.Path("agent", "name").Text(), Parent: parent, Call: int32(call)})
			w.walk(sub, ag, depth+1, where+"subagent "+key+": ")
			continue
		}
		p := ref.Get("trajectory_path").Text()
		if t := w.refFile(p); t != nil && !w.walked[t] {
			w.walked[t] = true
			ag := w.team.Add("file:"+filepath.Clean(p), model.Agent{ID: p, Type: t.Path("agent", "name").Text(), Parent: parent, Call: int32(call)})
			w.walk(t, ag, depth+1, where+"subagent "+p+": ")
		}
	}
}

// refFile loads a sub-agent trajectory file named relative to this one.
// Only plain relative names inside this file's directory are followed.
func (w *walker) refFile(p string) *jsontree.Value {
	if w.dir == "" || p == "" || w.files >= 64 {
		return nil
	}
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) || !filepath.IsLocal(p) {
		return nil
	}
	full := filepath.Join(w.dir, p)
	if t, ok := w.read[full]; ok {
		return t
	}
	t := w.readRef(full)
	w.read[full] = t
	return t
}

// readRef reads a referenced trajectory file (nil when it cannot be read).
func (w *walker) readRef(full string) *jsontree.Value {
	st, err := inputfile.Lstat(full) // a symlink could lead out of the directory; an archive's member is read from memory
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxRefFileSz {
		return nil
	}
	data, err := inputfile.ReadRegular(full)
	if err != nil {
		return nil
	}
	w.files++
	v, err := toolcall.Decode(data)
	if err != nil {
		return nil
	}
	t := v.Object()
	if t == nil || checkVersion(t) != nil {
		return nil
	}
	return t
}
