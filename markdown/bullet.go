package markdown

import (
	"strconv"
	"strings"
	"time"
)

// BulletKind says whether a bullet is in one of RenderSection's formats.
type BulletKind int

const (
	// BulletUser is a bullet in no format credence writes: a person (or
	// Claude Code) typed it.
	BulletUser BulletKind = iota
	// BulletBelief is "- statement (confidence: 0.85, evidence: 7)".
	BulletBelief
	// BulletFormer is "- [NO LONGER TRUE] statement (was: …, now: …, demoted: …)".
	BulletFormer
)

// Bullet is one list item found inside the section.
type Bullet struct {
	// Raw is the item exactly as written: its first line and any indented
	// continuation lines, joined with "\n", without line endings.
	Raw string
	// Statement is the item's text with the list marker, the tag and the
	// trailing figures removed, the escape RenderSection adds undone, and
	// white space collapsed.
	Statement string
	Kind      BulletKind
	// Confidence, Evidence and Contested are set for BulletBelief.
	Confidence float64
	Evidence   int
	Contested  bool
	// File is the detail file an index line links to (BulletBelief in the
	// link form), "" for a plain bullet.
	File string
	// Was, Now, Demoted and NoLongerTrue are set for BulletFormer, and
	// Successor when the bullet names what replaced it ("… → now Lisbon";
	// Statement is then the part before the arrow).
	Was, Now     float64
	Demoted      time.Time
	NoLongerTrue bool
	Successor    string
}

// Generated reports whether the bullet is in a format RenderSection writes.
func (b Bullet) Generated() bool { return b.Kind != BulletUser }

var (
	beliefBulletRe = lazyRegexp(`^- (.+) \((contested, )?confidence: ([0-9]+(?:\.[0-9]+)?), evidence: ([0-9]{1,9})\)$`)
	linkBulletRe   = lazyRegexp(`^- \[((?:[^\[\]\\]|\\.)+)\]\((credence-[a-z0-9-]{1,80}\.md)\) — (contested, )?confidence: ([0-9]+(?:\.[0-9]+)?), evidence: ([0-9]{1,9})$`)
	formerBulletRe = lazyRegexp(`^- \[(NO LONGER TRUE|UNCERTAIN)\] (.+) \(was: ([0-9]+(?:\.[0-9]+)?), now: ([0-9]+(?:\.[0-9]+)?), demoted: ([0-9]{4}-[0-9]{2}-[0-9]{2})\)$`)
	bulletStartRe  = lazyRegexp(`^ {0,3}[-*+](?:[ \t]|$)`)
	atxHeadingRe   = lazyRegexp(`^ {0,3}#{1,6}(?:[ \t]|$)`)
)

// parseGenerated parses a line written by RenderSection. It returns false for
// anything else, including a bullet with extra indentation.
func parseGenerated(line string) (Bullet, bool) {
	if !strings.HasPrefix(line, "- ") {
		return Bullet{}, false
	}
	if m := formerBulletRe().FindStringSubmatch(line); m != nil {
		date, err := time.Parse(time.DateOnly, m[5])
		if err != nil {
			return Bullet{}, false
		}
		was, _ := strconv.ParseFloat(m[3], 64)
		now, _ := strconv.ParseFloat(m[4], 64)
		statement, successor, _ := strings.Cut(m[2], successorMark)
		return Bullet{
			Raw: line, Statement: unescapeStatement(statement), Kind: BulletFormer,
			Was: was, Now: now, Demoted: date, NoLongerTrue: m[1] == "NO LONGER TRUE", Successor: successor,
		}, true
	}
	if m := linkBulletRe().FindStringSubmatch(line); m != nil {
		confidence, _ := strconv.ParseFloat(m[4], 64)
		evidence, _ := strconv.Atoi(m[5])
		return Bullet{
			Raw: line, Statement: unescapeLinkTitle(m[1]), Kind: BulletBelief, File: m[2],
			Confidence: confidence, Evidence: evidence, Contested: m[3] != "",
		}, true
	}
	if m := beliefBulletRe().FindStringSubmatch(line); m != nil {
		confidence, _ := strconv.ParseFloat(m[3], 64)
		evidence, _ := strconv.Atoi(m[4])
		return Bullet{
			Raw: line, Statement: unescapeStatement(m[1]), Kind: BulletBelief,
			Confidence: confidence, Evidence: evidence, Contested: m[2] != "",
		}, true
	}
	return Bullet{}, false
}

// parseBullet parses a list item's lines (the first holds the marker).
func parseBullet(lines []string) Bullet {
	if len(lines) == 1 {
		if b, ok := parseGenerated(lines[0]); ok {
			return b
		}
	}
	first := strings.TrimLeft(lines[0], " ")
	first = strings.TrimLeft(first[1:], " \t") // the marker, then its space
	parts := append([]string{first}, lines[1:]...)
	return Bullet{
		Raw:       strings.Join(lines, "\n"),
		Statement: unescapeStatement(strings.Join(strings.Fields(strings.Join(parts, " ")), " ")),
		Kind:      BulletUser,
	}
}

// unescapeStatement undoes the backslash SanitizeStatement puts before text
// that would open a block.
func unescapeStatement(s string) string {
	if len(s) > 1 && s[0] == '\\' && startsBlock(s[1:]) {
		return s[1:]
	}
	return s
}

// isGeneratedLine reports whether a line is one RenderSection writes other
// than the markers: a heading of the section or a bullet in its format.
func isGeneratedLine(line string) bool {
	if isKnownHeading(line) {
		return true
	}
	_, ok := parseGenerated(line)
	return ok
}

// isKnownHeading reports whether a line is one of the section's headings.
func isKnownHeading(line string) bool {
	switch strings.TrimRight(line, " \t") {
	case HeadingBeliefs, HeadingGuidelines, HeadingFormer:
		return true
	}
	return false
}

// isBlank reports whether a line holds only white space.
func isBlank(line string) bool {
	return strings.TrimSpace(line) == ""
}

// isContinuation reports whether a line continues the list item above it.
func isContinuation(line string) bool {
	return !isBlank(line) && (strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "\t"))
}
