package promote

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// Options tune a Promoter. The zero value is ready to use.
type Options struct {
	// Logger receives one line per promotion, demotion, removal and person's
	// edit; nil discards them.
	Logger *slog.Logger
	// Now is the clock; nil uses the database's clock (db.Now).
	Now func() time.Time
}

// Promoter keeps the credence section of every MEMORY.md in step with the
// beliefs. It is safe for concurrent use: the promotion cycle and the
// watcher's reactions to edits are serialized.
type Promoter struct {
	db    *store.DB
	cfg   *config.Config
	log   *slog.Logger
	now   func() time.Time
	rules rules

	mu      sync.Mutex         // one sync at a time, so records and marks stay consistent
	targets map[string]*target // by path, as of the last cycle; guarded by mu
	// onTargets is told the target files and their memory roots after each
	// cycle (the watcher).
	onTargets func(map[string]markdown.Root)
	// modelSeen holds the versions of MEMORY.md (path and hash) whose model
	// edits were taken in; guarded by mu.
	modelSeen map[string]bool
	// modelVer is, per file, the version the model left that the sync in
	// progress is repairing; guarded by mu, cleared when the sync is done.
	modelVer map[string]string

	usedMu    sync.Mutex
	usedEdits map[string]bool // edit-log records that explained a change
}

// New returns a Promoter that reads and marks beliefs in db and writes the
// files cfg names: cfg.Paths.GlobalMemory for global beliefs; for project
// beliefs the Claude Code auto-memory file of the project root
// (cfg.Memory.AutoMemoryDirectory honoured) or, with
// cfg.Memory.ProjectTarget "repo", <root>/.claude/memory/MEMORY.md.
func New(db *store.DB, cfg *config.Config, opts Options) *Promoter {
	p := &Promoter{db: db, cfg: cfg, log: opts.Logger, now: opts.Now, targets: map[string]*target{}, modelSeen: map[string]bool{}, modelVer: map[string]string{}, usedEdits: map[string]bool{}}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.now == nil {
		p.now = db.Now
	}
	m := cfg.Memory
	p.rules = rules{
		promoteConfidence: m.PromoteConfidence,
		minEvidence:       m.PromoteMinEvidence,
		removeConfidence:  m.RemoveConfidence,
		expiry:            time.Duration(m.DemoteExpiryDays) * 24 * time.Hour,
		limits:            markdown.Limits{MaxBeliefs: m.MaxBeliefs, MaxFormer: m.MaxFormer, MaxLines: m.MaxSectionLines},
	}
	return p
}

func (p *Promoter) resolver() *resolver {
	return &resolver{
		home:           p.cfg.Paths.Home,
		claudeProjects: p.cfg.Paths.ClaudeProjects,
		autoMemoryDir:  p.cfg.Memory.AutoMemoryDirectory,
		globalPath:     p.cfg.Paths.GlobalMemory,
		repoTarget:     p.cfg.Memory.ProjectTarget == "repo",
		exists:         map[string]bool{},
	}
}

// Promote runs one promotion cycle over every target file: it reads back
// what people changed in each file, applies the promotion rule and both
// demotion stages, writes the sections that changed and enforces the line
// budget. A file that fails is logged and the others still run; the errors
// are returned joined.
func (p *Promoter) Promote(ctx context.Context) (Stats, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var st Stats
	beliefs, err := p.db.PromotionCandidates(ctx, p.selection(nil))
	if err != nil {
		return st, fmt.Errorf("promote: %w", err)
	}
	targets, skipped := p.resolver().groupTargets(beliefs)
	st.Orphaned, st.MissingProject = skipped[skipOrphaned], skipped[skipMissingProject]
	records, err := p.records(ctx)
	if err != nil {
		return st, fmt.Errorf("promote: %w", err)
	}
	a, err := p.assessment(ctx)
	if err != nil {
		return st, fmt.Errorf("promote: %w", err)
	}
	p.targets = map[string]*target{}
	var errs []error
	fail := func(path string, err error) {
		p.log.Error("memory file not updated", "path", path, "err", err)
		errs = append(errs, err)
	}
	// Prepare every file (reading back edits), record the pending sections
	// in one transaction, write the files concurrently, confirm in one
	// transaction; a file whose section a person changed in between goes
	// through syncTarget again on its own.
	var jobs, again []*job
	for _, t := range targets {
		p.targets[t.path] = t
		rec, err := loadRecord(t.path, records[t.path])
		if err != nil {
			fail(t.path, err)
			continue
		}
		j, err := p.prepare(ctx, t, rec, &a)
		st.add(j.st)
		switch {
		case err != nil:
			fail(t.path, err)
		case !j.skip:
			jobs = append(jobs, j)
		}
	}
	var writes []*job
	for _, j := range jobs {
		if j.write {
			writes = append(writes, j)
		}
	}
	if err := p.putRecords(ctx, writes, false); err != nil {
		p.notifyTargets()
		return st, fmt.Errorf("promote: %w", errors.Join(append(errs, err)...))
	}
	p.writeAll(ctx, jobs)
	var finished []*job
	for _, j := range jobs {
		switch {
		case j.stale:
			again = append(again, j)
		case j.skip:
			st.add(j.written)
		case j.err != nil:
			st.add(j.written)
			fail(j.t.path, j.err)
		default:
			finished = append(finished, j)
		}
	}
	if err := p.putRecords(ctx, finished, true); err != nil {
		p.notifyTargets()
		return st, fmt.Errorf("promote: %w", errors.Join(append(errs, err)...))
	}
	for _, j := range finished {
		st.add(p.done(j))
	}
	for _, j := range again {
		fs, err := p.syncTarget(ctx, j.t, j.rec, &a)
		fs.Files = 0 // already counted
		st.add(fs)
		if err != nil {
			fail(j.t.path, err)
		}
	}
	p.notifyTargets()
	return st, errors.Join(errs...)
}

// selection is the store query for the candidates of target t (all targets
// when t is nil), with the thresholds the database can apply: a belief
// whose undecayed confidence is below a threshold cannot reach it, since
// decay moves it toward the prior, unless the prior itself reaches it.
func (p *Promoter) selection(t *target) store.PromotionSelect {
	var sel store.PromotionSelect
	if t != nil {
		sel.Global, sel.Projects = t.global, t.projects
	}
	prior := p.db.Params().PriorConfidence()
	if prior < p.rules.promoteConfidence {
		sel.MinConfidence, sel.MinEvidence = p.rules.promoteConfidence, p.rules.minEvidence
	}
	if prior < p.rules.removeConfidence {
		sel.PinnedMinConfidence = p.rules.removeConfidence
	}
	return sel
}

// records loads every memory_sections row by path.
func (p *Promoter) records(ctx context.Context) (map[string]*store.MemorySection, error) {
	rows, err := p.db.MemorySections(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*store.MemorySection, len(rows))
	for i := range rows {
		out[rows[i].Path] = &rows[i]
	}
	return out, nil
}

// assessment gathers what the promotion rule needs besides the beliefs.
func (p *Promoter) assessment(ctx context.Context) (assessment, error) {
	a := assessment{params: p.db.Params(), now: p.now()}
	var err error
	if a.turn, err = p.db.CurrentTurn(ctx); err != nil {
		return a, err
	}
	if a.exclusive, err = p.db.ExclusivePredicates(ctx); err != nil {
		return a, err
	}
	if a.rejected, err = p.db.RejectedSinceSupport(ctx); err != nil {
		return a, err
	}
	return a, nil
}

// Targets returns the files the last cycle considered (the global file at
// least), each with its memory root, running a cycle's target resolution
// first if none has run yet.
func (p *Promoter) Targets(ctx context.Context) (map[string]markdown.Root, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.targets) == 0 {
		if err := p.refreshTargets(ctx); err != nil {
			return nil, err
		}
	}
	return p.targetRoots(), nil
}

// refreshTargets recomputes the target files from the beliefs without
// writing anything. Callers hold mu.
func (p *Promoter) refreshTargets(ctx context.Context) error {
	beliefs, err := p.db.PromotionCandidates(ctx, p.selection(nil))
	if err != nil {
		return fmt.Errorf("list memory targets: %w", err)
	}
	targets, _ := p.resolver().groupTargets(beliefs)
	p.targets = map[string]*target{}
	for _, t := range targets {
		t.beliefs, t.loaded = nil, false // reloaded per sync; not kept between cycles
		p.targets[t.path] = t
	}
	return nil
}

func (p *Promoter) targetRoots() map[string]markdown.Root {
	out := make(map[string]markdown.Root, len(p.targets))
	for path, t := range p.targets {
		out[path] = t.root
	}
	return out
}

func (p *Promoter) notifyTargets() {
	for _, t := range p.targets {
		t.beliefs, t.loaded = nil, false // the next sync of one file reloads its beliefs
	}
	if p.onTargets != nil {
		p.onTargets(p.targetRoots())
	}
}

// setTargetListener registers the function told the target paths after each
// cycle; the watcher uses it to follow new projects.
func (p *Promoter) setTargetListener(fn func(map[string]markdown.Root)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onTargets = fn
}

// SyncFile brings the one file at path in step after it changed on disk: the
// watcher calls it. It returns own = true, doing nothing else, when the file
// holds exactly what credence last wrote there (the event was our own
// write). A path that is not a target file is ignored.
func (p *Promoter) SyncFile(ctx context.Context, path string) (st Stats, own bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	t, ok := p.targets[path]
	if !ok {
		if err := p.refreshTargets(ctx); err != nil {
			return st, false, err
		}
		if t, ok = p.targets[path]; !ok {
			return st, false, nil
		}
	}
	var row *store.MemorySection
	switch r, err := p.db.MemorySection(ctx, path); {
	case err == nil:
		row = &r
	case !errors.Is(err, store.ErrNotFound):
		return st, false, fmt.Errorf("sync %s: %w", path, err)
	}
	rec, err := loadRecord(path, row)
	if err != nil {
		return st, false, err
	}
	if p.outsideRoot(t, markdown.CheckInRoot(path, t.root)) {
		st.Skipped++
		return st, false, nil
	}
	doc, err := readMemoryFile(path)
	if err != nil {
		return st, false, err
	}
	if doc != nil && rec.found && rec.pending == nil && markdown.ContentHash(doc) == rec.hash {
		return st, true, nil
	}
	a, err := p.assessment(ctx)
	if err != nil {
		return st, false, fmt.Errorf("sync %s: %w", path, err)
	}
	t.loaded = false
	st, err = p.syncTarget(ctx, t, rec, &a)
	if err != nil {
		p.log.Error("memory file not updated after an edit", "path", path, "err", err)
	}
	return st, false, err
}
