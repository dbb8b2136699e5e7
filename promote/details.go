package promote

import (
	"context"
	"os"
	"path/filepath"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// useLinks reports whether t's section is written as index lines linking
// to detail files (Claude Code's one-file-per-memory layout) rather than as
// plain bullets. Only a Claude Code auto-memory file qualifies (not the
// global file, which CLAUDE.md imports, nor a repository's file), and with
// memory.index_links = "auto" only once its directory holds a memory file
// of Claude Code's own: the sign that the Claude Code writing there reads
// MEMORY.md as an index. Older Claude Code, which only loads MEMORY.md,
// keeps getting the statements inline.
func (p *Promoter) useLinks(t *target) bool {
	if t.global || p.cfg.Memory.ProjectTarget == "repo" {
		return false
	}
	switch p.cfg.Memory.IndexLinks {
	case "never":
		return false
	case "always":
		return true
	}
	return markdown.HasClaudeMemoryFiles(filepath.Dir(t.path))
}

// linkEntries gives every promoted entry of s its detail file.
func linkEntries(s *markdown.Section) {
	for _, list := range []*[]markdown.Entry{&s.Beliefs, &s.Guidelines} {
		for i := range *list {
			e := &(*list)[i]
			e.File = markdown.DetailName(e.ID, e.Statement)
		}
	}
}

// missingDetails reports whether a detail file of s is missing.
func missingDetails(t *target, s markdown.Section) bool {
	dir := filepath.Dir(t.path)
	for _, list := range [][]markdown.Entry{s.Beliefs, s.Guidelines} {
		for _, e := range list {
			if _, err := os.Lstat(filepath.Join(dir, e.File)); err != nil {
				return true
			}
		}
	}
	return false
}

// details builds the detail files of s's promoted entries.
func (p *Promoter) details(ctx context.Context, t *target, s markdown.Section, a *assessment) ([]markdown.Detail, error) {
	byID := map[string]store.Belief{}
	for _, b := range t.beliefs {
		byID[b.ID] = b
	}
	replaced := map[string]string{}
	for _, f := range s.Former {
		if f.SuccessorID != "" {
			replaced[f.SuccessorID] = f.Statement
		}
	}
	var out []markdown.Detail
	for gi, list := range [][]markdown.Entry{s.Beliefs, s.Guidelines} {
		for _, e := range list {
			b := byID[e.ID]
			guideline := gi == 1 || b.Kind == belief.KindGuideline
			ev, err := p.db.Evidence(ctx, e.ID)
			if err != nil {
				return nil, err
			}
			out = append(out, markdown.Detail{ID: e.ID, File: e.File, Statement: e.Statement, Type: memoryType(b, guideline),
				Guideline: guideline, Confidence: e.Confidence, Evidence: e.Evidence, Contested: e.Contested,
				Sources: sourceCounts(ev), Replaced: replaced[e.ID], Updated: a.now})
		}
	}
	return out, nil
}

// memoryType maps a belief to Claude Code's memory types: a guideline is
// feedback, a fact about the user is user, a project's fact is project,
// anything else reference.
func memoryType(b store.Belief, guideline bool) string {
	switch {
	case guideline:
		return markdown.TypeFeedback
	case b.Subject == extract.SubjectUser:
		return markdown.TypeUser
	case b.Scope == belief.ScopeProject:
		return markdown.TypeProject
	}
	return markdown.TypeReference
}

// sourceCounts groups a belief's evidence by where it came from, in words.
func sourceCounts(ev []store.Evidence) map[string]int {
	out := map[string]int{}
	for _, e := range ev {
		out[sourceWords(e.Source, e.Label)]++
	}
	return out
}

func sourceWords(source string, label belief.Label) string {
	switch {
	case source == SourceClaudeMemory:
		return "from Claude's memory files"
	case source == SourcePersonMemory:
		return "from your memory files"
	case label == belief.Manual || label == belief.UserEdit || source == memorySource || source == userSource:
		return "from you directly"
	case source == "heuristic" || source == "llm" || source == "episode":
		return "from conversations"
	}
	return "from " + source
}

// applyModelEdits takes in what the model changed in credence's section:
// nothing is counted against a belief (the write that follows puts back
// what it deleted or rewrote), and each bullet it added is an assistant
// claim, with the model's reliability, on the file's scope. A version of
// the file already taken in is not counted twice.
func (p *Promoter) applyModelEdits(ctx context.Context, t *target, e edits, doc []byte) (int, error) {
	if len(e.added) == 0 {
		return 0, nil
	}
	key := "added\x00" + t.path + "\x00" + markdown.ContentHash(doc)
	if p.modelSeen[key] {
		return 0, nil
	}
	scope, project := t.scopeForAdded()
	exclusive, err := p.db.ExclusivePredicates(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	err = p.db.Write(ctx, func(tx *store.Tx) error {
		n = 0
		ep := store.Episode{Kind: store.EpisodeMemory, Scope: scope, ProjectPath: project, SessionID: "memory:" + filepath.Base(t.path),
			Summary: "Claude Code memory (index): bullets the model added to credence's section"}
		for _, a := range e.added {
			ep.Content += "- " + a.Statement + "\n"
		}
		if _, err := tx.AddEpisode(ctx, &ep); err != nil {
			return err
		}
		if _, err := tx.MarkConsolidated(ctx, store.Consolidated{EpisodeID: ep.ID, Seq: ep.Seq, State: store.ConsolidationRetired,
			Mode: "offline", CycleID: "memory-file"}); err != nil {
			return err
		}
		for _, a := range e.added {
			sts := []store.Statement{{Subject: extract.SubjectUser, Statement: a.Statement, Kind: kindOf(a)}}
			if fs := extract.Extract(firstPersonText(a.Statement)); len(fs) > 0 {
				sts = sts[:0]
				for _, f := range fs {
					sts = append(sts, store.Statement{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
						Statement: f.Statement, Kind: f.Kind, Negated: f.Negated, Replaces: f.Replaces, Exclusive: f.Exclusive})
				}
			}
			for _, st := range sts {
				if _, err := tx.Claim(ctx, store.ClaimInput{Statement: st, Scope: scope, Project: project, EpisodeID: ep.ID,
					Source: SourceClaudeMemory, BeliefSource: SourceClaudeMemory, Label: belief.Supports,
					Reliability: p.cfg.Memory.ModelReliability}, st.Exclusive || exclusive[st.Predicate]); err != nil {
					return err
				}
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	p.forgetModelSeen()
	p.modelSeen[key] = true
	return n, nil
}

// modelVersion reports whether the model left MEMORY.md at path as doc
// is: the hook recorded it, or an earlier pass of this sync already found
// so (a write that went stale prepares the same version again, and the
// record is used up by then).
func (p *Promoter) modelVersion(path string, doc []byte) bool {
	hash := markdown.ContentHash(doc)
	if p.modelVer[path] == hash {
		return true
	}
	if !p.modelEdited(path, doc, doc == nil, true) {
		return false
	}
	p.modelVer[path] = hash // until this sync of the file is done
	return true
}

func kindOf(a markdown.AddedBullet) string {
	if a.Guideline {
		return belief.KindGuideline
	}
	return belief.KindFact
}

// modelSeenLimit bounds the versions of MEMORY.md remembered as taken in.
const modelSeenLimit = 256

// forgetModelSeen empties the memory of taken-in versions when it grows.
func (p *Promoter) forgetModelSeen() {
	if len(p.modelSeen) > modelSeenLimit {
		p.modelSeen = map[string]bool{}
	}
}
