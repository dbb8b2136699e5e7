package promote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"

	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// writeWorkers is how many files a cycle writes at once. Each write waits
// on two fsyncs, which overlap across files (docs/MEMORY_MD.md measured 100
// files in 1.2–1.6 s one at a time and 0.33 s eight at a time).
const writeWorkers = 8

// job is one file's pass through a sync: prepared, maybe written, then
// confirmed.
type job struct {
	t    *target
	rec  record
	seen string // fingerprint of the section as read
	pl   plan
	text string // the section to write
	// spliced is the file as it will be after the write (as read plus the
	// section); write says it differs from the file as read.
	spliced []byte
	write   bool
	hash    string // the file's hash after this sync
	// skip: nothing to show and no file to keep in step.
	skip bool
	// stale: the section changed between prepare and write; prepare again.
	stale bool
	err   error
	// st counts edits read back in prepare; written counts the write.
	st, written Stats
	// links: the section is written as index lines linking to detail
	// files; details are those files when they need writing (nil when
	// nothing changed); clearDetails removes credence's detail files (the
	// section is written as plain bullets).
	links        bool
	details      []markdown.Detail
	syncDetails  bool
	clearDetails bool
}

// prepare reads the file, records a person's edits and computes the plan
// and the bytes to write. Its only side effect is recording edits, which it
// does once: the record it updates in the same transaction stops a second
// prepare from seeing them again.
func (p *Promoter) prepare(ctx context.Context, t *target, rec record, a *assessment) (*job, error) {
	j := &job{t: t, rec: rec, st: Stats{Files: 1}}
	if p.outsideRoot(t, markdown.CheckInRoot(t.path, t.root)) {
		j.skip = true
		j.st.Skipped++
		return j, nil
	}
	doc, err := readMemoryFile(t.path)
	if err != nil {
		return j, err
	}
	current, hasSection := markdown.ParseSection(doc)
	j.seen = fingerprint(current, hasSection)
	if e := findEdits(j.rec.onDisk(), current, hasSection); !e.empty() && p.modelVersion(t.path, doc) {
		// The model tidied credence's section (Claude Code tells it to
		// keep MEMORY.md an index): what it deleted or rewrote is put back
		// by this write without counting against the beliefs; what it
		// added is an assistant claim.
		added, err := p.applyModelEdits(ctx, t, e, doc)
		if err != nil {
			return j, err
		}
		j.st.ModelRepaired += len(e.deleted) + len(e.deletedFormer)
		j.st.ModelAdded += added
		p.log.Info("the model edited credence's section in MEMORY.md; repaired without counting against the beliefs",
			"path", t.path, "deleted", len(e.deleted)+len(e.deletedFormer), "added", added)
		if added > 0 {
			t.loaded = false
		}
	} else if !e.empty() {
		out, err := p.applyEdits(ctx, t, e, &j.rec)
		if err != nil {
			return j, err
		}
		j.st.UserDeleted += out.rejected + out.cleared
		j.st.UserAdded += out.created + out.attached
		p.logEdits(t.path, e)
		t.loaded = false
		if a.rejected, err = p.db.RejectedSinceSupport(ctx); err != nil {
			return j, err
		}
	}
	if err := p.loadBeliefs(ctx, t); err != nil {
		return j, err
	}
	lin, err := p.lineage(ctx, t, j.rec)
	if err != nil {
		return j, err
	}
	cands := a.assess(t.beliefs)
	for i := range cands {
		cands[i].handOver = lin.handOver[cands[i].b.ID]
	}
	j.pl = p.rules.makePlan(cands, j.rec.onDisk(), a.now, lin)
	if doc == nil && !j.rec.found && !t.global && emptySection(j.pl.section) {
		// Nothing to say and no file: create none. The global file is
		// created with the markers alone (no heading), the place a person
		// adds a belief to.
		j.skip = true
		return j, nil
	}
	j.links = p.useLinks(t)
	if j.links {
		linkEntries(&j.pl.section)
	}
	j.text = p.rules.limits.Render(j.pl.section)
	if hasSection && !current.Damaged && bytes.HasPrefix(doc, []byte(j.text)) {
		// Already exactly this section at the top with nothing to repair:
		// Splice would return doc as it is. Skipping it saves a parse of
		// every file in the steady state.
		j.spliced = doc
	} else if j.spliced, err = markdown.Splice(doc, j.text); err != nil {
		return j, fmt.Errorf("splice %s: %w", t.path, err)
	}
	j.hash = markdown.ContentHash(doc)
	j.write = doc == nil || !bytes.Equal(j.spliced, doc)
	if j.write {
		j.rec.pending = &j.pl.section
	}
	switch {
	case j.links && (j.write || missingDetails(t, j.pl.section)):
		if j.details, err = p.details(ctx, t, j.pl.section, a); err != nil {
			return j, err
		}
		j.syncDetails = true
	case !j.links && j.write:
		j.clearDetails = true
	}
	return j, nil
}

// writeFile writes a prepared job's section, provided the section still
// holds what prepare read, then keeps the line budget. It sets j.stale,
// j.err and j.hash; it touches no database, so jobs can run concurrently.
func (p *Promoter) writeFile(ctx context.Context, j *job) {
	res, err := markdown.WriteSection(ctx, j.t.path, func(now markdown.ParsedSection, ok bool) (string, error) {
		if fingerprint(now, ok) != j.seen {
			return "", errSectionChanged // stops WriteSection without writing
		}
		return j.text, nil
	}, markdown.WriteOptions{CreateDir: j.t.createDir, Root: j.t.root})
	switch {
	case errors.Is(err, errSectionChanged):
		j.stale = true
		return
	case errors.Is(err, markdown.ErrNoDirectory), p.outsideRoot(j.t, err):
		j.written.Skipped++
		j.skip = true
		return
	case err != nil:
		j.err = err
		return
	}
	if res.Changed {
		j.written.Written++
	}
	j.hash = res.Hash
	p.keepBudget(ctx, j)
}

// outsideRoot reports whether err says that a file of t is reached through
// a symbolic link leading out of its memory root, and logs why it is then
// skipped: a repository that ships .claude/memory/MEMORY.md as a link to
// ~/.bashrc must not get credence's section written there.
func (p *Promoter) outsideRoot(t *target, err error) bool {
	if !errors.Is(err, markdown.ErrOutsideRoot) {
		return false
	}
	p.log.Warn("memory file skipped: a symbolic link leads out of its memory root, and credence never writes through one",
		"path", t.path, "root", t.root.Dir, "err", err)
	return true
}

// keepBudget archives the oldest dated sections when the file is longer
// than Claude Code loads, and takes the file's new hash.
func (p *Promoter) keepBudget(ctx context.Context, j *job) {
	maxLines, maxBytes := p.cfg.Memory.MaxLines, p.cfg.Memory.MaxBytes
	if !over(j.spliced, maxLines, maxBytes) {
		return
	}
	n, err := markdown.EnforceBudget(ctx, j.t.path, maxLines, maxBytes, j.t.root)
	if p.outsideRoot(j.t, err) {
		return // the section is written; the archive is not, and the log says why
	}
	if err != nil {
		j.err = err
		return
	}
	if n == 0 {
		return
	}
	j.written.Archived += n
	after, err := readMemoryFile(j.t.path)
	if err != nil {
		j.err = err
		return
	}
	j.hash = markdown.ContentHash(after)
	p.log.Info("dated sections archived to keep MEMORY.md within what Claude Code loads",
		"path", j.t.path, "sections", n, "archive", markdown.ArchivePath(j.t.path))
}

// writeAll runs writeFile for the jobs that need writing, writeWorkers at
// a time, and keeps the budget of the others.
func (p *Promoter) writeAll(ctx context.Context, jobs []*job) {
	sem := make(chan struct{}, writeWorkers)
	var wg sync.WaitGroup
	for _, j := range jobs {
		if !j.write {
			p.keepBudget(ctx, j)
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			p.writeFile(ctx, j)
		}()
	}
	wg.Wait()
}

// needsConfirm reports whether a finished job changes its record or marks.
// In the steady state (nothing written, marked or pending) the record is
// left alone: a write transaction per file per cycle would be most of a
// cycle's cost.
func (p *Promoter) needsConfirm(j *job) bool {
	return j.write || len(j.pl.marks) > 0 || !j.rec.found || j.rec.pending != nil || j.rec.hash != j.hash ||
		p.rules.limits.Render(j.rec.written) != j.text || !slices.Equal(j.rec.handOver, j.pl.handOver)
}

// putRecords stores, in one transaction, the records of jobs: their pending
// sections before the writes (confirm false), or after them (confirm true)
// their new sections, hashes and marks.
func (p *Promoter) putRecords(ctx context.Context, jobs []*job, confirm bool) error {
	var rows []store.MemorySection
	var marks []store.PromotionMark
	for _, j := range jobs {
		if confirm {
			if !p.needsConfirm(j) {
				continue
			}
			if j.write {
				j.rec.writtenAt = p.now().UnixMilli()
			}
			j.rec.written, j.rec.pending, j.rec.hash, j.rec.handOver = j.pl.section, nil, j.hash, j.pl.handOver
			marks = append(marks, j.pl.marks...)
		}
		row, err := j.rec.row()
		if err != nil {
			return err
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 && len(marks) == 0 {
		return nil
	}
	err := p.db.Write(ctx, func(tx *store.Tx) error {
		for _, r := range rows {
			if err := tx.PutMemorySection(ctx, r); err != nil {
				return err
			}
		}
		for _, m := range marks {
			if err := tx.SetPromotion(ctx, m.ID, m.PromotedAt, m.DemotedAt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("record memory sections: %w", err)
	}
	for _, j := range jobs {
		j.rec.found = true
	}
	return nil
}

// done writes or removes the job's detail files, logs its changes and
// returns its counts. The section is on disk by now, so an index line never
// links to a detail file of a belief the section no longer shows for long:
// at worst a line links to a file being written.
func (p *Promoter) done(j *job) Stats {
	p.logPlan(j.t.path, j.pl)
	delete(p.modelVer, j.t.path)
	st := j.written
	dir := filepath.Dir(j.t.path)
	switch {
	case j.syncDetails:
		ds, err := markdown.WriteDetails(dir, j.t.root, j.details)
		st.DetailsWritten += ds.Written
		st.DetailsRemoved += ds.Removed
		for _, k := range ds.Kept {
			p.log.Warn("detail file not written: a file of that name that credence did not write is there", "path", k)
		}
		if err != nil {
			p.log.Error("detail files not all written", "dir", dir, "err", err)
		}
	case j.clearDetails:
		n, err := markdown.RemoveDetails(dir, j.t.root)
		st.DetailsRemoved += n
		if err != nil {
			p.log.Error("detail files not all removed", "dir", dir, "err", err)
		}
	}
	st.Promoted += len(j.pl.promoted)
	st.Repromoted += len(j.pl.repromoted)
	st.Demoted += len(j.pl.demoted)
	st.Removed += len(j.pl.removed)
	return st
}
