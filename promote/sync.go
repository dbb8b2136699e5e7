package promote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/credence-mem/credence/markdown"
)

// maxSyncAttempts bounds how often one file is re-read because a person
// changed its section while credence was about to write it.
const maxSyncAttempts = 5

// errSectionChanged aborts a write whose section changed since it was read:
// a person edited it, and the edit is read back before writing.
var errSectionChanged = errors.New("section changed since it was read")

// errSectionKeptChanging is returned when the section changed under every
// attempt; the next cycle or edit event tries again.
var errSectionKeptChanging = errors.New("the section kept changing while it was being written")

// syncTarget brings one file in step: prepare (read it, take in what a
// person changed in the section since credence wrote it, apply the
// promotion rule), record the intent to write, write the section if it
// differs and keep the line budget, then confirm the record and the marks.
// The write only goes through if the section still holds what was read;
// otherwise it starts over, so a person's edit made in that window is read
// back rather than overwritten.
func (p *Promoter) syncTarget(ctx context.Context, t *target, rec record, a *assessment) (Stats, error) {
	var st Stats
	for attempt := 1; attempt <= maxSyncAttempts; attempt++ {
		j, err := p.prepare(ctx, t, rec, a)
		st.add(j.st)
		if err != nil || j.skip {
			return st, err
		}
		if j.write {
			if err := p.putRecords(ctx, []*job{j}, false); err != nil {
				return st, err
			}
			p.writeFile(ctx, j)
		} else {
			p.keepBudget(ctx, j)
		}
		rec = j.rec
		switch {
		case j.stale:
			continue
		case j.skip, j.err != nil:
			st.add(j.written)
			return st, j.err
		}
		if err := p.putRecords(ctx, []*job{j}, true); err != nil {
			return st, err
		}
		st.add(p.done(j))
		return st, nil
	}
	return st, fmt.Errorf("sync %s: %w", t.path, errSectionKeptChanging)
}

// loadBeliefs reads the target's candidates unless they are current.
func (p *Promoter) loadBeliefs(ctx context.Context, t *target) error {
	if t.loaded {
		return nil
	}
	t.beliefs = nil
	if t.global || len(t.projects) > 0 {
		bs, err := p.db.PromotionCandidates(ctx, p.selection(t))
		if err != nil {
			return err
		}
		t.beliefs = bs
	}
	t.loaded = true
	return nil
}

// readMemoryFile returns the file's bytes, or nil when it does not exist.
func readMemoryFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return b, nil
}

// fingerprint identifies what a section holds, bullet by bullet, so a
// change made between reading the file and writing it is noticed.
func fingerprint(s markdown.ParsedSection, ok bool) string {
	if !ok {
		return "\x00none"
	}
	var b strings.Builder
	for _, g := range s.Groups {
		b.WriteString(g.Heading)
		b.WriteByte(0)
		for _, bl := range g.Bullets {
			b.WriteString(bl.Raw)
			b.WriteByte(0)
		}
		b.WriteByte(1)
	}
	return b.String()
}

// over reports whether a document is longer than Claude Code loads.
func over(doc []byte, maxLines, maxBytes int) bool {
	if maxLines <= 0 {
		maxLines = markdown.DefaultMaxLines
	}
	if maxBytes <= 0 {
		maxBytes = markdown.DefaultMaxBytes
	}
	lines := bytes.Count(doc, []byte("\n"))
	if len(doc) > 0 && doc[len(doc)-1] != '\n' {
		lines++
	}
	return lines > maxLines || len(doc) > maxBytes
}

// logPlan writes one line per belief whose place in the file changed.
func (p *Promoter) logPlan(path string, pl plan) {
	for _, c := range pl.promoted {
		if c.reason != "" {
			p.log.Info("belief promoted to MEMORY.md", "belief", c.id, "path", path, "reason", c.reason)
			continue
		}
		p.log.Info("belief promoted to MEMORY.md", "belief", c.id, "path", path)
	}
	for _, c := range pl.repromoted {
		p.log.Info("belief promoted again after recovering", "belief", c.id, "path", path)
	}
	for _, c := range pl.demoted {
		p.log.Info("belief moved to Former Beliefs", "belief", c.id, "path", path, "reason", c.reason)
	}
	for _, c := range pl.removed {
		p.log.Info("belief removed from MEMORY.md", "belief", c.id, "path", path, "reason", c.reason)
	}
}

// logEdits writes one line per edit a person made.
func (p *Promoter) logEdits(path string, e edits) {
	for _, d := range e.deleted {
		p.log.Info("promoted bullet deleted by a person; belief rejected", "belief", d.ID, "path", path)
	}
	for _, f := range e.deletedFormer {
		p.log.Info("former bullet deleted by a person", "belief", f.ID, "path", path)
	}
	for range e.added {
		p.log.Info("bullet added by a person; recorded as a pinned belief", "path", path)
	}
}
