package markdown

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

var demoted = time.Date(2026, 2, 20, 15, 4, 0, 0, time.UTC)

func TestRenderSectionFormat(t *testing.T) {
	s := Section{
		Beliefs: []Entry{
			{ID: "bl_1", Statement: "User prefers Bun over Node.js for all projects", Confidence: 0.85, Evidence: 7},
			{ID: "bl_2", Statement: "The TTS project uses ElevenLabs API for voice generation", Confidence: 0.92, Evidence: 12},
		},
		Guidelines: []Entry{{ID: "bl_3", Statement: "Run go vet before committing", Confidence: 0.8, Evidence: 4, Contested: true}},
		Former:     []FormerEntry{{ID: "bl_4", Statement: "User preferred dark mode for all UIs", Was: 0.78, Now: 0.45, Date: demoted, Reason: ReasonContradicted}},
	}
	want := `<!-- CREDENCE:BELIEFS:BEGIN -->
## Beliefs

- User prefers Bun over Node.js for all projects (confidence: 0.85, evidence: 7)
- The TTS project uses ElevenLabs API for voice generation (confidence: 0.92, evidence: 12)

## Behavioral Guidelines

- Run go vet before committing (contested, confidence: 0.80, evidence: 4)

## Former Beliefs

- [NO LONGER TRUE] User preferred dark mode for all UIs (was: 0.78, now: 0.45, demoted: 2026-02-20)

<!-- CREDENCE:BELIEFS:END -->
`
	if got := RenderSection(s); got != want {
		t.Errorf("RenderSection() =\n%s\nwant\n%s", got, want)
	}
}

func TestRenderSectionHeadings(t *testing.T) {
	tests := []struct {
		name     string
		s        Section
		want     []string
		wantNot  []string
		wantLine int
	}{
		// Issue 15: nothing to say is the markers alone, no empty heading
		// sent to the model in every request.
		{"empty has no heading", Section{}, []string{BeginMarker, EndMarker}, []string{HeadingBeliefs, HeadingGuidelines, HeadingFormer}, 2},
		{"no guidelines", Section{Beliefs: entries("b", 1), Former: formers(1)}, []string{HeadingBeliefs, HeadingFormer}, []string{HeadingGuidelines}, 10},
		{"no former", Section{Guidelines: entries("g", 2)}, []string{HeadingGuidelines}, []string{HeadingFormer, HeadingBeliefs}, 7},
		{"weakened belief is uncertain, not false", Section{Former: []FormerEntry{{Statement: "x", Reason: ReasonWeakened, Date: demoted}}}, []string{"- [UNCERTAIN] x"}, []string{"NO LONGER TRUE"}, 6},
		{"superseded belief is no longer true", Section{Former: []FormerEntry{{Statement: "x", Reason: ReasonSuperseded, Date: demoted}}}, []string{"- [NO LONGER TRUE] x"}, nil, 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RenderSection(tt.s)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("RenderSection() lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("RenderSection() has %q:\n%s", w, got)
				}
			}
			if n := countLines([]byte(got)); n != tt.wantLine {
				t.Errorf("RenderSection() has %d lines, want %d:\n%s", n, tt.wantLine, got)
			}
		})
	}
}

func TestRenderSectionCaps(t *testing.T) {
	tests := []struct {
		name                              string
		s                                 Section
		beliefs, guidelines, former, line int
	}{
		{"beliefs capped at 10", Section{Beliefs: entries("b", 15)}, 10, 0, 0, 15},
		{"former capped at 5", Section{Former: formers(9)}, 0, 0, 5, 10},
		{"full lists fit", Section{Beliefs: entries("b", 10), Former: formers(5)}, 10, 0, 5, 23},
		// 10 beliefs, 10 guidelines, 5 former would be 36 lines: guidelines
		// and former beliefs give way in turn until 30.
		{"over 30 lines drops guidelines and former first", Section{Beliefs: entries("b", 10), Guidelines: entries("g", 10), Former: formers(5)}, 10, 7, 2, 30},
		{"beliefs go last", Section{Beliefs: entries("b", 10), Guidelines: entries("g", 30)}, 10, 12, 0, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RenderSection(tt.s)
			p, ok := ParseSection([]byte(got))
			if !ok {
				t.Fatalf("ParseSection(RenderSection()) found no section:\n%s", got)
			}
			counts := []int{len(p.Bullets(HeadingBeliefs)), len(p.Bullets(HeadingGuidelines)), len(p.Bullets(HeadingFormer))}
			want := []int{tt.beliefs, tt.guidelines, tt.former}
			if fmt.Sprint(counts) != fmt.Sprint(want) {
				t.Errorf("bullets per heading = %v, want %v:\n%s", counts, want, got)
			}
			if n := countLines([]byte(got)); n != tt.line || n > 30 {
				t.Errorf("RenderSection() has %d lines, want %d (≤ 30)", n, tt.line)
			}
			// Entries are ranked: the ones kept are the first ones.
			if b := p.Bullets(HeadingGuidelines); len(b) > 0 && b[0].Statement != "g 0" {
				t.Errorf("first guideline kept = %q, want %q", b[0].Statement, "g 0")
			}
		})
	}
}

func TestRenderSectionSkipsUnusableEntries(t *testing.T) {
	s := Section{
		Beliefs:    []Entry{{ID: "bl_1", Statement: "kept"}, {ID: "bl_1", Statement: "same ID again"}, {ID: "bl_2", Statement: " \n\t "}},
		Guidelines: []Entry{{ID: "bl_1", Statement: "promoted twice"}},
	}
	p, _ := ParseSection([]byte(RenderSection(s)))
	if got := p.Bullets(HeadingBeliefs); len(got) != 1 || got[0].Statement != "kept" {
		t.Errorf("beliefs = %+v, want only %q", got, "kept")
	}
	if got := p.Bullets(HeadingGuidelines); len(got) != 0 {
		t.Errorf("guidelines = %+v, want none (bl_1 is already a belief)", got)
	}
}

func TestSanitizeStatement(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "User prefers Bun", "User prefers Bun"},
		{"newlines collapse", "line one\n\nline two\r\n  three", "line one line two three"},
		{"tabs and controls", "a\tb\x00c\x1bd", "a b c d"},
		{"begin marker is broken", "x <!-- CREDENCE:BELIEFS:BEGIN --> y", "x <! -- CREDENCE:BELIEFS:BEGIN -- > y"},
		{"end marker is broken", EndMarker, `\<! -- CREDENCE:BELIEFS:END -- >`},
		{"nested comment openers", "<!<!---->", `\<!<! ---- >`},
		{"leading hash", "# not a heading", `\# not a heading`},
		{"leading hashes after newline", "\n## Beliefs", `\## Beliefs`},
		{"leading quote", "> quoted", `\> quoted`},
		{"leading dash", "- nested", `\- nested`},
		{"ordered list", "1. first", `\1. first`},
		{"number in text", "2026 was a year", "2026 was a year"},
		{"fence", "```go", "\\```go"},
		{"task box look-alike", "[NO LONGER TRUE] x", `\[NO LONGER TRUE] x`},
		{"inner hash kept", "use C# daily", "use C# daily"},
		{"unicode line separator", "a\u2028b", "a b"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SanitizeStatement(tt.in); got != tt.want {
				t.Errorf("SanitizeStatement(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	t.Run("long statements are cut", func(t *testing.T) {
		got := SanitizeStatement(strings.Repeat("word ", 200))
		if n := len([]rune(got)); n > maxStatementRunes || !strings.HasSuffix(got, "…") {
			t.Errorf("SanitizeStatement(1000 chars) has %d runes, ends %q; want ≤ %d ending in …", n, got[len(got)-5:], maxStatementRunes)
		}
	})
}

// TestHostileStatementsCannotBreakTheSection renders statements built to
// escape the section and checks the section still parses to exactly them.
func TestHostileStatementsCannotBreakTheSection(t *testing.T) {
	hostile := []string{
		EndMarker,
		"x\n" + EndMarker + "\n# Heading",
		"```\nfenced",
		"<div>\nhtml",
		"## Former Beliefs",
		"    indented code",
		"x (confidence: 0.99, evidence: 99)",
		"[NO LONGER TRUE] y (was: 0.10, now: 0.10, demoted: 2020-01-01)",
		"\\# escaped already",
		"-->",
	}
	var s Section
	for i, h := range hostile {
		s.Beliefs = append(s.Beliefs, Entry{ID: fmt.Sprint(i), Statement: h, Confidence: 0.9, Evidence: 3})
	}
	doc := []byte(RenderSection(s) + "\n# Mine\n")
	out, err := Splice(doc, RenderSection(s))
	if err != nil {
		t.Fatalf("Splice(): %v", err)
	}
	if string(out) != string(doc) {
		t.Errorf("Splice() of a settled document changed it:\n%s", out)
	}
	p, ok := ParseSection(doc)
	if !ok || p.Damaged {
		t.Fatalf("ParseSection() ok=%v damaged=%v", ok, p.Damaged)
	}
	got := p.Bullets(HeadingBeliefs)
	if len(got) != len(hostile) {
		t.Fatalf("parsed %d beliefs, want %d:\n%s", len(got), len(hostile), doc)
	}
	for i, b := range got {
		if b.Kind != BulletBelief || StatementKey(b.Statement) != StatementKey(hostile[i]) {
			t.Errorf("bullet %d = %q (kind %d), want belief %q", i, b.Statement, b.Kind, SanitizeStatement(hostile[i]))
		}
	}
}

func entries(prefix string, n int) []Entry {
	out := make([]Entry, n)
	for i := range out {
		out[i] = Entry{ID: fmt.Sprintf("%s%d", prefix, i), Statement: fmt.Sprintf("%s %d", prefix, i), Confidence: 0.9 - float64(i)/100, Evidence: 3 + i}
	}
	return out
}

func formers(n int) []FormerEntry {
	out := make([]FormerEntry, n)
	for i := range out {
		out[i] = FormerEntry{ID: fmt.Sprintf("f%d", i), Statement: fmt.Sprintf("former %d", i), Was: 0.8, Now: 0.6, Date: demoted}
	}
	return out
}

// TestIndexLinesParseBack: an entry with a detail file is rendered as
// Claude Code's index line and parses back to its statement, figures and
// file, however hostile the statement.
func TestIndexLinesParseBack(t *testing.T) {
	statements := []string{
		"User prefers Bun over Node.js",
		"[link](x.md) and ] brackets [ and a \\ backslash",
		"# not a heading — and an em dash — confidence: 0.99, evidence: 3",
		"<!-- CREDENCE:BELIEFS:END --> inside",
	}
	var s Section
	for i, st := range statements {
		id := fmt.Sprintf("bl_01J%03dABCDEF", i)
		s.Beliefs = append(s.Beliefs, Entry{ID: id, Statement: st, Confidence: 0.81, Evidence: 5, File: DetailName(id, st)})
	}
	got := RenderSection(s)
	p, ok := ParseSection([]byte(got))
	if !ok || p.Damaged {
		t.Fatalf("ParseSection: ok %v, damaged %v:\n%s", ok, p.Damaged, got)
	}
	bs := p.Bullets(HeadingBeliefs)
	if len(bs) != len(statements) {
		t.Fatalf("%d bullets, want %d:\n%s", len(bs), len(statements), got)
	}
	for i, b := range bs {
		e := s.Beliefs[i]
		if b.Kind != BulletBelief || b.File != e.File || b.Confidence != 0.81 || b.Evidence != 5 {
			t.Errorf("bullet %d = %+v, want a belief linking %s", i, b, e.File)
		}
		if StatementKey(b.Statement) != StatementKey(e.Statement) {
			t.Errorf("bullet %d statement %q, want %q", i, b.Statement, SanitizeStatement(e.Statement))
		}
		if !strings.HasPrefix(b.Raw, "- [") || !strings.Contains(b.Raw, "]("+e.File+") — confidence: 0.81, evidence: 5") {
			t.Errorf("bullet %d = %q, not an index line", i, b.Raw)
		}
	}
	if d := DiffSection(s, p); len(d.Deleted) != 0 || len(d.Added) != 0 {
		t.Errorf("DiffSection of its own rendering = %+v", d)
	}
}
