package markdown

import (
	"strings"
)

// ParsedSection is what a document's credence section holds now, as a person
// or Claude Code may have edited it.
type ParsedSection struct {
	// Groups are the section's headings in order, each with the bullets
	// under it. Bullets above the first heading are in a group with an empty
	// Heading.
	Groups []Group
	// Damaged reports that the document is not exactly one section at the
	// top: markers are missing, lone, duplicated or moved, a generated run
	// sits outside them, or text a person typed sits inside the section
	// (other than bullets under its headings). The next write repairs it.
	Damaged bool
}

// Group is a heading of the section and the bullets under it.
type Group struct {
	Heading string // the heading line, e.g. "## Beliefs"
	// Known reports one of the headings RenderSection writes. Splice hands
	// the bullets under these to the caller (they are replaced by the next
	// render); bullets under any other heading are kept as text below the
	// section.
	Known   bool
	Bullets []Bullet
}

// Bullets returns the bullets under heading (e.g. HeadingBeliefs), or nil.
func (p ParsedSection) Bullets(heading string) []Bullet {
	var out []Bullet
	for _, g := range p.Groups {
		if g.Heading == heading {
			out = append(out, g.Bullets...)
		}
	}
	return out
}

// ParseSection reads the section Splice would treat as credence's (the first
// BEGIN…END pair of doc). It returns false when doc has no such pair; the
// caller must then not read the absence of bullets as deletions.
func ParseSection(doc []byte) (ParsedSection, bool) {
	return scan(doc).parseSection()
}

func (l *layout) parseSection() (ParsedSection, bool) {
	pairs, _, _ := l.sectionPairs()
	if len(pairs) == 0 {
		return ParsedSection{Damaged: true}, false
	}
	var p ParsedSection
	_, sound := l.sound()
	p.Damaged = !sound

	var bullet []string
	flush := func() {
		if len(bullet) == 0 {
			return
		}
		if len(p.Groups) == 0 {
			p.Groups = append(p.Groups, Group{})
		}
		g := &p.Groups[len(p.Groups)-1]
		g.Bullets = append(g.Bullets, parseBullet(bullet))
		bullet = nil
	}
	for i := pairs[0][0] + 1; i < pairs[0][1]; i++ {
		line := l.lineText(i)
		switch {
		case l.isHeadingLine(i):
			flush()
			p.Groups = append(p.Groups, Group{Heading: strings.TrimSpace(line), Known: isKnownHeading(line)})
		case !l.literal[i] && bulletStartRe().MatchString(line):
			flush()
			bullet = []string{line}
		case len(bullet) > 0 && !l.literal[i] && isContinuation(line):
			bullet = append(bullet, line)
		default:
			flush()
		}
	}
	flush()
	return p, true
}

// SectionChanges is how a parsed section differs from what credence last
// rendered into it.
type SectionChanges struct {
	// Deleted are rendered beliefs and guidelines whose bullet is gone from
	// under every heading: a person removed them.
	Deleted []Entry
	// DeletedFormer are rendered former beliefs whose bullet is gone.
	DeletedFormer []FormerEntry
	// Added are bullets under ## Beliefs (or ## Behavioral Guidelines when
	// Guideline is set) that match nothing rendered: a person wrote them.
	Added []AddedBullet
}

// AddedBullet is a bullet a person added to the section.
type AddedBullet struct {
	Bullet
	Guideline bool // it is under ## Behavioral Guidelines
}

// DiffSection compares what credence last rendered with what the section
// holds now. Bullets are matched by statement after SanitizeStatement and
// case folding, in any group, so moving a bullet between headings or a
// change of its figures is not a deletion. An edited statement shows up as
// one deletion and one addition.
func DiffSection(rendered Section, current ParsedSection) SectionChanges {
	present := map[string]int{}
	for _, g := range current.Groups {
		for _, b := range g.Bullets {
			present[StatementKey(b.Statement)]++
		}
	}
	known := map[string]bool{}
	var c SectionChanges
	take := func(statement string) bool {
		k := StatementKey(statement)
		known[k] = true
		if present[k] > 0 {
			present[k]--
			return true
		}
		return false
	}
	for _, list := range [][]Entry{rendered.Beliefs, rendered.Guidelines} {
		for _, e := range list {
			if !take(e.Statement) {
				c.Deleted = append(c.Deleted, e)
			}
		}
	}
	for _, f := range rendered.Former {
		if !take(f.Statement) {
			c.DeletedFormer = append(c.DeletedFormer, f)
		}
	}
	for _, g := range current.Groups {
		if g.Heading != HeadingBeliefs && g.Heading != HeadingGuidelines {
			continue
		}
		for _, b := range g.Bullets {
			if k := StatementKey(b.Statement); !known[k] && b.Statement != "" {
				c.Added = append(c.Added, AddedBullet{Bullet: b, Guideline: g.Heading == HeadingGuidelines})
				known[k] = true
			}
		}
	}
	return c
}

// StatementKey is the form statements are compared in: sanitized, with
// the escape rendering adds undone, lower-cased. promote compares a
// person's bullets in it too.
func StatementKey(s string) string {
	return strings.ToLower(unescapeStatement(SanitizeStatement(s)))
}
