package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrBadSection is returned by Splice for a section that is not one
// BeginMarker line, content without marker lines, and one EndMarker line.
var ErrBadSection = errors.New("section must be a BEGIN marker line, content and an END marker line")

// maxSplicePasses bounds the repair loop. A pass removes at least one marker
// line or generated run, so real documents settle in one or two.
const maxSplicePasses = 16

// Splice returns doc with section as its only credence section, placed at the
// very top (below a byte-order mark and YAML front matter, which must stay
// first to mean anything).
//
// When doc already has exactly one section at the top, only the bytes from
// its BEGIN line through its END line change. Otherwise Splice repairs, and
// the rules are:
//
//   - The first BEGIN…END pair is the section. Its headings and the bullets
//     under ## Beliefs, ## Behavioral Guidelines and ## Former Beliefs are
//     replaced (ParseSection hands them to the caller first); any other line
//     in it (text, another heading and its bullets) is kept, right below the
//     new section.
//   - Every other pair, and the lines around a lone BEGIN (up to the next
//     marker or the next heading that is not one of the section's) or a lone
//     END (back to the previous marker or heading), lose only their marker
//     lines and the lines credence generates: the three headings and bullets
//     in RenderSection's exact format. A bullet a person typed there is
//     kept, since nobody will read it from a broken section.
//   - Outside any markers, a run that starts with one of the section's
//     headings and holds only generated lines (a section whose markers were
//     both deleted) is removed.
//   - Blank lines inside a region survive only between two kept lines.
//   - When the section moves to the top, a blank line separates it from the
//     text below unless that text already starts with one.
//
// Nothing else changes: every other line is kept byte for byte and in order.
// Splice is idempotent.
func Splice(doc []byte, section string) ([]byte, error) {
	sec, err := checkSection(section)
	if err != nil {
		return nil, err
	}
	return spliceLayout(scan(doc), sec)
}

// spliceLayout is Splice on an already scanned document and a checked
// section.
func spliceLayout(l *layout, sec []byte) ([]byte, error) {
	for range maxSplicePasses {
		if end, ok := l.sound(); ok {
			// The common case: exactly one section at the top and nothing
			// to repair. The section ends in a closed HTML block, so what
			// follows parses the same whatever section precedes it.
			if bytes.Equal(l.body[:end], sec) {
				return l.doc, nil
			}
			return slices.Concat(l.doc[:l.prefix], sec, l.body[end:]), nil
		}
		l = scan(l.repair(sec))
	}
	return nil, fmt.Errorf("splice: document did not settle after %d passes", maxSplicePasses)
}

// checkSection validates section and gives it a final newline.
func checkSection(section string) ([]byte, error) {
	if !strings.HasSuffix(section, "\n") {
		section += "\n"
	}
	l := scan([]byte(section))
	if l.prefix != 0 || len(l.markers) != 2 || !l.markers[0].begin || l.markers[1].begin ||
		l.markers[0].line != 0 || l.markers[1].line != len(l.lines)-1 {
		return nil, ErrBadSection
	}
	return []byte(section), nil
}

// sound reports whether the document is exactly one section at the top of
// the body, holding nothing a person typed except bullets under its own
// headings, with no other marker and no orphaned generated run; it returns
// the offset in the body where the section ends.
func (l *layout) sound() (int, bool) {
	if len(l.markers) != 2 || !l.markers[0].begin || l.markers[1].begin || l.markers[0].line != 0 {
		return 0, false
	}
	last := l.markers[1].line
	drop := make([]bool, len(l.lines))
	l.dropRegion(drop, make([]bool, len(l.lines)), 0, last+1, true)
	for i := 0; i <= last; i++ {
		if !drop[i] {
			return 0, false // text typed inside the section: repair moves it out
		}
	}
	if l.dropOrphanRuns(drop, nil, last+1) {
		return 0, false
	}
	return l.lines[last].end, true
}

// settled reports whether the document is sound and its section is sec.
func (l *layout) settled(sec []byte) bool {
	end, ok := l.sound()
	return ok && bytes.Equal(l.body[:end], sec)
}

// repair builds the document with sec at the top, applying the rules of
// Splice once.
func (l *layout) repair(sec []byte) []byte {
	drop := make([]bool, len(l.lines))
	inRegion := make([]bool, len(l.lines))
	pairs, loneBegin, loneEnd := l.sectionPairs()
	atTop := len(pairs) > 0 && pairs[0][0] == 0

	for k, p := range pairs {
		l.dropRegion(drop, inRegion, p[0], p[1]+1, k == 0)
	}
	for _, b := range loneBegin {
		end := b + 1
		for end < len(l.lines) && !l.isMarkerLine(end) && !(l.isHeadingLine(end) && !isKnownHeading(l.lineText(end))) {
			end++
		}
		l.dropRegion(drop, inRegion, b, end, false)
	}
	for _, e := range loneEnd {
		start := e
		for start > 0 && !l.isMarkerLine(start-1) && !inRegion[start-1] &&
			!(l.isHeadingLine(start-1) && !isKnownHeading(l.lineText(start-1))) {
			start--
		}
		l.dropRegion(drop, inRegion, start, e+1, false)
	}
	l.dropOrphanRuns(drop, inRegion, 0)

	var rest bytes.Buffer
	for i, s := range l.lines {
		if !drop[i] {
			rest.Write(l.body[s.start:s.end])
		}
	}
	out := make([]byte, 0, l.prefix+len(sec)+rest.Len()+1)
	out = append(out, l.doc[:l.prefix]...)
	out = append(out, sec...)
	if !atTop && rest.Len() > 0 && !startsBlank(rest.Bytes()) {
		out = append(out, '\n')
	}
	return append(out, rest.Bytes()...)
}

// dropRegion marks lines [from, to) of a section or broken section: its
// marker lines and generated lines are dropped and, for the canonical
// section, the bullets handed to the caller too. Blank lines go unless they
// sit between two kept lines.
func (l *layout) dropRegion(drop, inRegion []bool, from, to int, canonical bool) {
	keep := make([]bool, to-from)
	underKnown, inHandedBullet := false, false
	for i := from; i < to; i++ {
		inRegion[i] = true
		line := l.lineText(i)
		switch {
		case l.isMarkerLine(i):
			inHandedBullet = false
		case l.literal[i]:
			keep[i-from], inHandedBullet = true, false
		case isBlank(line):
			inHandedBullet = false // kept or not is decided below
		case isKnownHeading(line):
			underKnown, inHandedBullet = true, false
		case l.isHeadingLine(i):
			keep[i-from], underKnown, inHandedBullet = true, false, false
		case isGeneratedLine(line):
			// ParseSection reads an indented line below a bullet as part of
			// it, so in the canonical section it goes to the caller too.
			inHandedBullet = canonical && underKnown
		case canonical && underKnown && bulletStartRe().MatchString(line):
			inHandedBullet = true
		case canonical && inHandedBullet && isContinuation(line):
		default:
			keep[i-from], inHandedBullet = true, false
		}
	}
	// A blank line stays only between kept lines: find, for each, the
	// nearest non-blank line on either side (past the region's edge, any
	// line but a marker counts as kept).
	blank := func(i int) bool { return !l.literal[i] && isBlank(l.lineText(i)) }
	beyondKept := func(i int) bool { return i >= 0 && i < len(l.lines) && !l.markerLine[i] }
	nextKept := make([]bool, to-from)
	next := beyondKept(to)
	for i := to - 1; i >= from; i-- {
		nextKept[i-from] = next
		if !blank(i) {
			next = keep[i-from]
		}
	}
	prev := beyondKept(from - 1)
	for i := from; i < to; i++ {
		if blank(i) {
			keep[i-from] = prev && nextKept[i-from]
		} else {
			prev = keep[i-from]
		}
		drop[i] = !keep[i-from]
	}
}

// dropOrphanRuns marks, from line `from` on and outside the lines in
// skip, runs of generated lines that start at one of the section's headings
// and hold at least one generated bullet. It reports whether it found any.
func (l *layout) dropOrphanRuns(drop, skip []bool, from int) bool {
	skipped := func(i int) bool { return skip != nil && skip[i] }
	found := false
	for i := from; i < len(l.lines); i++ {
		if skipped(i) || l.isMarkerLine(i) || l.literal[i] || !isKnownHeading(l.lineText(i)) {
			continue
		}
		end, lastGenerated, bullets := i, i, 0
		for ; end < len(l.lines); end++ {
			line := l.lineText(end)
			if skipped(end) || l.literal[end] || l.isMarkerLine(end) || !isBlank(line) && !isGeneratedLine(line) {
				break
			}
			if !isBlank(line) {
				lastGenerated = end
				if !isKnownHeading(line) {
					bullets++
				}
			}
		}
		if bullets > 0 {
			for j := i; j <= lastGenerated; j++ {
				drop[j] = true
			}
			found = true
		}
		i = lastGenerated
	}
	return found
}

func (l *layout) isMarkerLine(i int) bool { return l.markerLine[i] }

func startsBlank(b []byte) bool {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return isBlank(string(line))
}
