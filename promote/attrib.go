package promote

import (
	"path/filepath"
	"strconv"
	"time"

	"github.com/credence-mem/credence/hookrelay"
)

// Author says who made a change to a memory file.
type Author string

// Who edited: the model (the PostToolUse hook recorded the change) or a
// person (anything else: an editor, a shell, a sync tool).
const (
	AuthorModel  Author = "model"
	AuthorPerson Author = "person"
)

// editLogWindow is how far back the edit log is read: a change is matched
// with a record of the last ten minutes.
const editLogWindow = 10 * time.Minute

// whoEdited attributes what the file at path holds now (content, or nil
// when it is gone) to the model when the hook recorded a model edit that
// left exactly this (same path, same content hash, or "gone" for a
// deletion), otherwise to a person.
func (p *Promoter) whoEdited(path string, content []byte, gone bool) Author {
	if p.modelEdited(path, content, gone, true) {
		return AuthorModel
	}
	return AuthorPerson
}

// modelEdited reports whether the newest record of the file's edits in the
// hook's log left it as it is now. A record explains one change: with
// consume set it is used up, so a person who later puts the file back into
// the very state the model left it in is not taken for the model.
func (p *Promoter) modelEdited(path string, content []byte, gone, consume bool) bool {
	recs, err := hookrelay.ReadEditLog(p.cfg.Paths.DataDir, time.Now().Add(-editLogWindow)) // the hook writes wall-clock times
	if err != nil {
		p.log.Warn("edit log not read; taking the change for a person's", "err", err)
		return false
	}
	if len(recs) == 0 {
		return false
	}
	want := hookrelay.Gone
	if !gone {
		want = hookrelay.ContentHash(content)
	}
	paths := map[string]bool{filepath.Clean(path): true}
	if real, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		paths[filepath.Join(real, filepath.Base(path))] = true
	}
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if !paths[r.Path] {
			if real, err := filepath.EvalSymlinks(filepath.Dir(r.Path)); err != nil || !paths[filepath.Join(real, filepath.Base(r.Path))] {
				continue
			}
		}
		// The newest record of this file decides: a person's edit after
		// the model's leaves a hash no record holds.
		if r.Hash != want {
			return false
		}
		key := strconv.FormatInt(r.Time.UnixNano(), 10) + "\x00" + r.Path
		p.usedMu.Lock()
		defer p.usedMu.Unlock()
		if p.usedEdits[key] {
			return false
		}
		if consume {
			if len(p.usedEdits) > maxUsedEdits {
				p.usedEdits = map[string]bool{}
			}
			p.usedEdits[key] = true
		}
		return true
	}
	return false
}

// maxUsedEdits bounds the records remembered as used; past it the memory
// starts again (records older than editLogWindow no longer count anyway).
const maxUsedEdits = 4096

// awaitingRecord reports whether a change to path that no record explains
// yet is recent enough that the hook's record may still come: the hook
// runs after the tool has written the file, and the agent may see the
// change first. Without an edit log (the hook never ran) nothing is
// awaited.
func (p *Promoter) awaitingRecord(since time.Time) bool {
	wait := p.cfg.Memory.EditAttribution
	return wait > 0 && time.Since(since) < wait && hookrelay.EditLogExists(p.cfg.Paths.DataDir)
}
