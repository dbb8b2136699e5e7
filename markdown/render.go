package markdown

import (
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// The marker lines that delimit credence's section. Anything between them is
// credence's to rewrite; everything else in the file belongs to the person and
// to Claude Code.
const (
	BeginMarker = "<!-- CREDENCE:BELIEFS:BEGIN -->"
	EndMarker   = "<!-- CREDENCE:BELIEFS:END -->"
)

// The headings RenderSection writes inside the markers.
const (
	HeadingBeliefs    = "## Beliefs"
	HeadingGuidelines = "## Behavioral Guidelines"
	HeadingFormer     = "## Former Beliefs"
)

// Reasons a belief left ## Beliefs. FormerEntry.Reason picks the bullet's tag:
// contradicted and superseded beliefs (and an empty reason) are
// "[NO LONGER TRUE]"; any other reason, such as a confidence that merely fell,
// is "[UNCERTAIN]", so the model is not told a belief is false when it only
// lost support.
const (
	ReasonContradicted = "contradicted"
	ReasonSuperseded   = "superseded"
	ReasonWeakened     = "weakened"
)

// The tags at the start of a former belief's bullet.
const (
	tagNoLongerTrue = "[NO LONGER TRUE]"
	tagUncertain    = "[UNCERTAIN]"
)

// maxStatementRunes bounds one bullet so 30 lines stay far below the 25 KB
// Claude Code loads.
const maxStatementRunes = 300

// Entry is a promoted belief or guideline as the caller ranked it.
type Entry struct {
	ID         string // the belief's ID (bl_…); used to drop duplicates, not rendered
	Statement  string
	Confidence float64
	Evidence   int
	Contested  bool // rendered as "contested"; the promotion rules normally keep these out
	// File, when set, is the entry's detail file beside the memory file
	// (credence-<slug>.md): the entry is then rendered as an index line
	// linking to it, "- [statement](file) — confidence: 0.85, evidence: 7",
	// as Claude Code's one-file-per-memory layout asks of MEMORY.md.
	File string `json:",omitempty"`
}

// FormerEntry is a demoted belief shown under ## Former Beliefs.
type FormerEntry struct {
	ID        string
	Statement string
	Was, Now  float64   // confidence at its peak while promoted, and now
	Date      time.Time // when it was demoted (rendered as a UTC date)
	Reason    string    // ReasonContradicted, ReasonSuperseded, ReasonWeakened or other
	// Successor is the statement of the belief that replaced this one, when
	// one did: the bullet names it ("… → now Lisbon"), so the model reading
	// the file learns what is true instead, not only what is not.
	// SuccessorID, like ID, is not rendered.
	Successor   string `json:",omitempty"`
	SuccessorID string `json:",omitempty"`
}

// Section is what goes between the markers, each list ranked best first.
type Section struct {
	Beliefs    []Entry
	Guidelines []Entry
	Former     []FormerEntry
}

// Limits caps the section. The defaults are DESIGN §7's: ten beliefs, five
// former beliefs, thirty lines including markers, headings and blank lines.
type Limits struct {
	MaxBeliefs int
	MaxFormer  int
	MaxLines   int
}

// DefaultLimits are the caps of DESIGN §7.
var DefaultLimits = Limits{MaxBeliefs: 10, MaxFormer: 5, MaxLines: 30}

// RenderSection renders s with DefaultLimits.
func RenderSection(s Section) string {
	return DefaultLimits.Render(s)
}

// Render returns the section text, markers included, ending in a newline:
//
//	<!-- CREDENCE:BELIEFS:BEGIN -->
//	## Beliefs
//
//	- User prefers Bun over Node.js (confidence: 0.85, evidence: 7)
//
//	## Former Beliefs
//
//	- [NO LONGER TRUE] User preferred dark mode (was: 0.78, now: 0.45, demoted: 2026-02-20)
//
//	<!-- CREDENCE:BELIEFS:END -->
//
// Each heading is written only when it has entries: a section with nothing
// to say is the two markers alone, never an empty heading sent to the
// model in every request (a person adds a bullet by writing the heading).
// Entries with an empty statement or an ID seen earlier are skipped. Lists are
// cut to MaxBeliefs and MaxFormer, then, while the section is longer than
// MaxLines, the lowest-ranked guideline and former belief are dropped in turn
// (beliefs last), because the beliefs are what the section is for.
func (l Limits) Render(s Section) string {
	beliefs, guidelines, former := l.fit(s)
	var b strings.Builder
	b.WriteString(BeginMarker + "\n")
	if len(beliefs) > 0 {
		b.WriteString(HeadingBeliefs + "\n\n")
		for _, e := range beliefs {
			b.WriteString(formatEntry(e) + "\n")
		}
		b.WriteString("\n")
	}
	if len(guidelines) > 0 {
		b.WriteString(HeadingGuidelines + "\n\n")
		for _, e := range guidelines {
			b.WriteString(formatEntry(e) + "\n")
		}
		b.WriteString("\n")
	}
	if len(former) > 0 {
		b.WriteString(HeadingFormer + "\n\n")
		for _, f := range former {
			b.WriteString(formatFormer(f) + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(EndMarker + "\n")
	return b.String()
}

// fit applies the caps and the line budget.
func (l Limits) fit(s Section) ([]Entry, []Entry, []FormerEntry) {
	seen := map[string]bool{}
	beliefs := capped(usableEntries(s.Beliefs, seen), l.MaxBeliefs)
	guidelines := usableEntries(s.Guidelines, seen)
	var former []FormerEntry
	for _, f := range s.Former {
		if SanitizeStatement(f.Statement) == "" || f.ID != "" && seen[f.ID] {
			continue
		}
		if f.ID != "" {
			seen[f.ID] = true
		}
		former = append(former, f)
	}
	former = capped(former, l.MaxFormer)

	dropGuideline := true
	for sectionLines(len(beliefs), len(guidelines), len(former)) > l.MaxLines {
		switch {
		case len(guidelines) > 0 && (dropGuideline || len(former) == 0):
			guidelines = guidelines[:len(guidelines)-1]
		case len(former) > 0:
			former = former[:len(former)-1]
		case len(beliefs) > 0:
			beliefs = beliefs[:len(beliefs)-1]
		default:
			return beliefs, guidelines, former // markers and heading alone; nothing left to drop
		}
		dropGuideline = !dropGuideline
	}
	return beliefs, guidelines, former
}

// sectionLines counts the lines Render writes for lists of these lengths.
func sectionLines(beliefs, guidelines, former int) int {
	n := 2 // markers
	for _, k := range []int{beliefs, guidelines, former} {
		if k > 0 {
			n += 3 + k // heading, blank, bullets, blank
		}
	}
	return n
}

func usableEntries(entries []Entry, seen map[string]bool) []Entry {
	var out []Entry
	for _, e := range entries {
		if SanitizeStatement(e.Statement) == "" || e.ID != "" && seen[e.ID] {
			continue
		}
		if e.ID != "" {
			seen[e.ID] = true
		}
		out = append(out, e)
	}
	return out
}

func capped[T any](list []T, n int) []T {
	if n >= 0 && len(list) > n {
		return list[:n]
	}
	return list
}

func formatEntry(e Entry) string {
	contested := ""
	if e.Contested {
		contested = "contested, "
	}
	if e.File != "" && validDetailName(e.File) {
		return fmt.Sprintf("- [%s](%s) — %sconfidence: %.2f, evidence: %d",
			linkTitle(e.Statement), e.File, contested, clamp01(e.Confidence), max(e.Evidence, 0))
	}
	return fmt.Sprintf("- %s (%sconfidence: %.2f, evidence: %d)",
		SanitizeStatement(e.Statement), contested, clamp01(e.Confidence), max(e.Evidence, 0))
}

// linkTitle is a statement made safe as a link's text: sanitized, without
// the escape of a leading block character (the text does not start the
// item), and with backslashes and brackets escaped.
func linkTitle(statement string) string {
	s := unescapeStatement(SanitizeStatement(statement))
	r := strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`)
	return r.Replace(s)
}

// unescapeLinkTitle undoes linkTitle's escapes.
func unescapeLinkTitle(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(`\[]`, s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func formatFormer(f FormerEntry) string {
	tag := tagUncertain
	switch f.Reason {
	case "", ReasonContradicted, ReasonSuperseded:
		tag = tagNoLongerTrue
	}
	statement := SanitizeStatement(f.Statement)
	if now := replacement(f.Statement, f.Successor); now != "" {
		statement += successorMark + now
	}
	return fmt.Sprintf("- %s %s (was: %.2f, now: %.2f, demoted: %s)",
		tag, statement, clamp01(f.Was), clamp01(f.Now), f.Date.UTC().Format(time.DateOnly))
}

// successorMark joins a former belief's statement to what replaced it.
const successorMark = " → now "

// maxReplacementWords is the longest differing part of the successor's
// statement shown alone; a longer one is shown whole.
const maxReplacementWords = 6

// replacement is what a former bullet says replaced its statement: the part
// of the successor's statement that differs from the old one when both
// share their other words (more than the subject) ("User lives in Berlin", "User lives in Lisbon" →
// "Lisbon"), else the successor's whole statement; "" when there is none.
// It is kept on the line and inert like a statement, and short.
func replacement(old, successor string) string {
	successor = SanitizeStatement(successor)
	if successor == "" {
		return ""
	}
	successor = strings.TrimPrefix(successor, `\`) // mid-line, nothing to escape
	ow, nw := strings.Fields(SanitizeStatement(old)), strings.Fields(successor)
	p := 0
	for p < len(ow) && p < len(nw) && strings.EqualFold(ow[p], nw[p]) {
		p++
	}
	s := 0
	for s < len(ow)-p && s < len(nw)-p && strings.EqualFold(ow[len(ow)-1-s], nw[len(nw)-1-s]) {
		s++
	}
	out := successor
	// Sharing only the subject ("User") is not sharing the claim's shape.
	if mid := nw[p : len(nw)-s]; (p > 1 || s > 0) && len(mid) > 0 && len(mid) <= maxReplacementWords {
		out = strings.TrimRight(strings.Join(mid, " "), ".,;:")
	}
	if runes := []rune(out); len(runes) > maxReplacementRunes {
		out = strings.TrimSpace(string(runes[:maxReplacementRunes-1])) + "…"
	}
	return out
}

// maxReplacementRunes bounds the successor's part of a former bullet.
const maxReplacementRunes = 120

func clamp01(v float64) float64 {
	if v != v || v < 0 { // NaN too
		return 0
	}
	return min(v, 1)
}

// SanitizeStatement makes a statement safe to put on one bullet line: control
// characters and line breaks become spaces, runs of white space collapse,
// comment delimiters are broken ("<!--" becomes "<! --", "-->" becomes
// "-- >") so no statement can form or imitate a marker, a leading character
// that would start a Markdown block ("#", ">", "-", "1." …) is escaped with a
// backslash, and the result is cut to 300 characters. DiffSection compares
// statements in this form.
func SanitizeStatement(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	})
	s = strings.Join(fields, " ")
	for strings.Contains(s, "<!--") || strings.Contains(s, "-->") {
		s = strings.ReplaceAll(s, "<!--", "<! --")
		s = strings.ReplaceAll(s, "-->", "-- >")
	}
	if runes := []rune(s); len(runes) > maxStatementRunes {
		s = strings.TrimSpace(string(runes[:maxStatementRunes-1])) + "…"
	}
	if s != "" && startsBlock(s) {
		s = `\` + s
	}
	return s
}

// startsBlock reports whether text at the start of a list item's content
// would open a block other than a paragraph (a heading, quote, list, fence,
// thematic break, table row or HTML block) or be taken for a task box.
func startsBlock(s string) bool {
	switch s[0] {
	case '#', '>', '-', '*', '+', '=', '_', '`', '~', '|', '<', '[', '\\':
		return true
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')')
}

// StripFormerTag removes the "[NO LONGER TRUE]" or "[UNCERTAIN]" a demoted
// entry is rendered with, so a bullet a person moved out of the section
// compares with the belief it came from.
func StripFormerTag(s string) string {
	for _, tag := range []string{tagNoLongerTrue, tagUncertain} {
		if rest, ok := strings.CutPrefix(s, tag); ok {
			return strings.TrimSpace(rest)
		}
	}
	return s
}
