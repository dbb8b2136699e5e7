package promote

import (
	"sort"
	"time"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// rules are the promotion constants of DESIGN §7 (config section [memory]).
type rules struct {
	promoteConfidence float64       // promote at or above this confidence…
	minEvidence       int           // …with at least this much evidence
	removeConfidence  float64       // stage 2: remove below this confidence
	expiry            time.Duration // stage 2: remove this long after demotion
	limits            markdown.Limits
}

// userSource is the source of beliefs a person stated (a bullet added to
// MEMORY.md, `credence remember`).
const userSource = "user"

// Reasons a belief leaves the section for good (stage 2), as logged.
const (
	removeLowConfidence = "confidence below the removal threshold"
	removeStatus        = "status is no longer active"
	removeExpired       = "demoted longer ago than the expiry"
	removeNoRoom        = "no room under Former Beliefs"
	removeDisplaced     = "outranked by other beliefs"
)

// reasonHandOver is logged for a belief promoted in the place of one a
// person's words ended.
const reasonHandOver = "took the place of the belief it replaced"

// reasonContested tags a former belief whose group became contested; any
// reason other than contradicted or superseded renders as [UNCERTAIN].
const reasonContested = "contested"

// change is one belief whose place in the file changed in a plan.
type change struct {
	id, statement string
	reason        string // for removals and demotions
}

// plan is the outcome of the promotion rule for one file.
type plan struct {
	section                                markdown.Section
	marks                                  []store.PromotionMark // marks that change
	promoted, repromoted, demoted, removed []change
	// handOver lists the beliefs the section shows by the hand-over rule
	// (not yet by the ordinary one), sorted; the file's record keeps them.
	handOver []string
}

// eligible reports whether a candidate passes the promotion rule: active,
// not contested, not rejected since its last support, and confidence ≥ the
// promotion threshold with enough evidence. A belief a person pinned and
// stated (a bullet they added) needs only to stay above the removal
// threshold: they put it there, and evidence has not yet spoken against it.
// So does a belief that took a promoted one's place by the hand-over: a
// person ended the old one in their own words by stating it.
func (r rules) eligible(c candidate) bool {
	if c.b.Status != belief.Active || c.contested || c.blocked {
		return false
	}
	if firstRank(c) {
		return c.conf >= r.removeConfidence
	}
	return r.earned(c)
}

// earned reports whether an active candidate passes the ordinary rule by
// its own confidence and evidence.
func (r rules) earned(c candidate) bool {
	return c.conf >= r.promoteConfidence && c.b.EvidenceCount >= r.minEvidence
}

// firstRank reports whether a candidate is in the section on a person's
// word — a bullet they wrote, or the value they said replaced a promoted
// one — and so ranks before the beliefs that earned their place.
func firstRank(c candidate) bool {
	return (c.b.Pinned && c.b.Source == userSource) || c.handOver
}

// removal returns why a belief that no longer passes the rule leaves the
// file entirely (stage 2), or "" when it goes to or stays in Former
// (stage 1). A superseded or revised belief is what "[NO LONGER TRUE]" is
// for, so that status change alone moves it to Former; any other status
// (archived, merged, split, rejected, forgotten) means it is gone.
func (r rules) removal(c candidate, now time.Time) string {
	switch {
	case c.conf < r.removeConfidence:
		return removeLowConfidence
	case c.b.Status != belief.Active && c.b.Status != belief.Superseded && c.b.Status != belief.Revised:
		return removeStatus
	case c.b.DemotedAt != 0 && now.Sub(time.UnixMilli(c.b.DemotedAt)) >= r.expiry:
		return removeExpired
	}
	return ""
}

// formerReason picks the tag of a former belief: superseded and revised
// beliefs, and those that lost confidence to contradicting evidence, are no
// longer true; a contested one or one that merely faded is uncertain.
func formerReason(c candidate) string {
	switch {
	case c.b.Status == belief.Superseded:
		return markdown.ReasonSuperseded
	case c.b.Status == belief.Revised:
		return markdown.ReasonContradicted
	case c.contested:
		return reasonContested
	case c.b.Contradictions > 0:
		return markdown.ReasonContradicted
	}
	return markdown.ReasonWeakened
}

// makePlan applies the promotion rule and both demotion stages to one file's
// candidates. prev is the section the file holds (as credence wrote it), the
// source of each former belief's "was" confidence.
func (r rules) makePlan(cands []candidate, prev markdown.Section, now time.Time, lin lineage) plan {
	var p plan
	nowMs := now.UnixMilli()
	shown, shownFormer := entryByID(prev), formerByID(prev)
	var beliefs, guidelines []candidate
	type former struct {
		c     candidate
		entry markdown.FormerEntry
		fresh bool // demoted in this plan
	}
	var formers []former
	for _, c := range cands {
		marked := c.b.PromotedAt != 0 || c.b.DemotedAt != 0
		switch {
		case markdown.SanitizeStatement(c.b.Statement) == "":
			// Nothing printable to show (the renderer would skip it).
			if marked {
				p.remove(c, removeStatus)
			}
		case r.eligible(c):
			if c.b.Kind == belief.KindGuideline {
				guidelines = append(guidelines, c)
			} else {
				beliefs = append(beliefs, c)
			}
		case !marked:
		default:
			if why := r.removal(c, now); why != "" {
				p.remove(c, why)
				continue
			}
			f := former{c: c, fresh: c.b.DemotedAt == 0}
			date := c.b.DemotedAt
			if f.fresh {
				date = nowMs
			}
			f.entry = markdown.FormerEntry{ID: c.b.ID, Statement: c.b.Statement, Was: wasConfidence(c, shown, shownFormer),
				Now: c.conf, Date: time.UnixMilli(date), Reason: formerReason(c)}
			if s, ok := lin.successor[c.b.ID]; ok {
				f.entry.Successor, f.entry.SuccessorID = s.Statement, s.ID
			}
			formers = append(formers, f)
		}
	}
	rankCandidates(beliefs)
	rankCandidates(guidelines)
	sort.SliceStable(formers, func(i, j int) bool {
		if !formers[i].entry.Date.Equal(formers[j].entry.Date) {
			return formers[i].entry.Date.After(formers[j].entry.Date)
		}
		return formers[i].c.b.ID < formers[j].c.b.ID
	})
	nb, ng, nf := r.fit(len(beliefs), len(guidelines), len(formers))

	for i, list := range [][]candidate{beliefs, guidelines} {
		keep := []int{nb, ng}[i]
		for k, c := range list {
			if k >= keep {
				if c.b.PromotedAt != 0 || c.b.DemotedAt != 0 {
					p.remove(c, removeDisplaced)
				}
				continue
			}
			e := markdown.Entry{ID: c.b.ID, Statement: c.b.Statement, Confidence: c.conf, Evidence: c.b.EvidenceCount}
			if c.handOver && !r.earned(c) {
				p.handOver = append(p.handOver, c.b.ID)
			}
			if i == 0 {
				p.section.Beliefs = append(p.section.Beliefs, e)
			} else {
				p.section.Guidelines = append(p.section.Guidelines, e)
			}
			switch {
			case c.b.PromotedAt == 0:
				p.marks = append(p.marks, store.PromotionMark{ID: c.b.ID, PromotedAt: nowMs})
				ch := change{id: c.b.ID, statement: c.b.Statement}
				if c.handOver {
					ch.reason = reasonHandOver
				}
				p.promoted = append(p.promoted, ch)
			case c.b.DemotedAt != 0:
				p.marks = append(p.marks, store.PromotionMark{ID: c.b.ID, PromotedAt: c.b.PromotedAt})
				p.repromoted = append(p.repromoted, change{id: c.b.ID, statement: c.b.Statement})
			}
		}
	}
	sort.Strings(p.handOver)
	for k, f := range formers {
		if k >= nf {
			p.remove(f.c, removeNoRoom)
			continue
		}
		p.section.Former = append(p.section.Former, f.entry)
		if f.fresh {
			p.marks = append(p.marks, store.PromotionMark{ID: f.c.b.ID, PromotedAt: f.c.b.PromotedAt, DemotedAt: nowMs})
			p.demoted = append(p.demoted, change{id: f.c.b.ID, statement: f.c.b.Statement, reason: f.entry.Reason})
		}
	}
	return p
}

// remove records that a belief leaves the file and loses its marks.
func (p *plan) remove(c candidate, why string) {
	p.marks = append(p.marks, store.PromotionMark{ID: c.b.ID})
	p.removed = append(p.removed, change{id: c.b.ID, statement: c.b.Statement, reason: why})
}

// wasConfidence is the confidence a former belief had while promoted: what
// the file last showed for it, else its peak.
func wasConfidence(c candidate, shown map[string]markdown.Entry, former map[string]markdown.FormerEntry) float64 {
	if e, ok := shown[c.b.ID]; ok {
		return e.Confidence
	}
	if f, ok := former[c.b.ID]; ok {
		return f.Was
	}
	return c.b.Peak
}

// rankCandidates orders beliefs best first: those in the section on a
// person's word (a bullet they wrote, a value they said replaced a promoted
// one), then by confidence · ln(1 + evidence), then by ID so the order is
// stable.
func rankCandidates(list []candidate) {
	sort.SliceStable(list, func(i, j int) bool {
		pi, pj := firstRank(list[i]), firstRank(list[j])
		if pi != pj {
			return pi
		}
		ri, rj := belief.Rank(list[i].conf, list[i].b.EvidenceCount), belief.Rank(list[j].conf, list[j].b.EvidenceCount)
		if ri != rj {
			return ri > rj
		}
		return list[i].b.ID < list[j].b.ID
	})
}

// fit returns how many beliefs, guidelines and former beliefs the section
// shows: the caps first, then, while the section is longer than its line
// budget, the lowest-ranked guideline and former belief are dropped in turn
// and beliefs last. It mirrors markdown.Limits.Render exactly, so every
// entry in the plan is an entry in the file and its marks are true.
func (r rules) fit(beliefs, guidelines, former int) (int, int, int) {
	l := r.limits
	beliefs, former = capAt(beliefs, l.MaxBeliefs), capAt(former, l.MaxFormer)
	dropGuideline := true
	for sectionLines(beliefs, guidelines, former) > l.MaxLines {
		switch {
		case guidelines > 0 && (dropGuideline || former == 0):
			guidelines--
		case former > 0:
			former--
		case beliefs > 0:
			beliefs--
		default:
			return beliefs, guidelines, former
		}
		dropGuideline = !dropGuideline
	}
	return beliefs, guidelines, former
}

func capAt(n, limit int) int {
	if limit >= 0 && n > limit {
		return limit
	}
	return n
}

// sectionLines counts the lines markdown.Limits.Render writes for lists of
// these lengths: the markers, ## Beliefs and its blank line, the beliefs and
// a blank line, and for each other non-empty list a heading, a blank line,
// its bullets and a blank line.
func sectionLines(beliefs, guidelines, former int) int {
	n := 4
	if beliefs > 0 {
		n += beliefs + 1
	}
	for _, k := range []int{guidelines, former} {
		if k > 0 {
			n += 3 + k
		}
	}
	return n
}
