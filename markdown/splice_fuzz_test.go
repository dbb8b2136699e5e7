package markdown

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzSplice checks, for any document: Splice succeeds; the result holds
// exactly one section, at the top below the document's own prefix; splicing
// again changes nothing; replacing that section with another changes no byte
// outside it; and every line a person could have typed (anything but a
// marker, a generated line, a blank line, or a bullet ParseSection handed to
// the caller) is still there.
func FuzzSplice(f *testing.F) {
	seeds := []string{
		"",
		"# Notes\n\n- a note\n",
		secA + "\n# Notes\n",
		"---\nname: x\n---\n" + oldSection,
		"```\n" + oldSection + "```\n",
		oldSection + "\nmiddle\n\n" + oldSection + "end\n",
		BeginMarker + "\n## Beliefs\n\n- Old (confidence: 0.75, evidence: 3)\n- typed\n\n# Notes\n",
		"## Beliefs\n\n- Old (confidence: 0.75, evidence: 3)\n\n" + EndMarker + "\n",
		"- item\n" + oldSection + "  " + BeginMarker + "\n```\n" + EndMarker + "\n",
		"<div>\n" + BeginMarker + "\n\n" + EndMarker + "\n",
		"> " + BeginMarker + "\n" + EndMarker + "\n" + EndMarker,
		strings.ReplaceAll(oldSection, "\n", "\r\n"),
		"\xEF\xBB\xBF---\n...\n" + EndMarker + BeginMarker,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		out, err := Splice(doc, secA)
		if err != nil {
			t.Fatalf("Splice(%q): %v", doc, err)
		}
		prefix := prefixLen(doc)
		if !bytes.HasPrefix(out, doc[:prefix]) {
			t.Fatalf("Splice(%q) = %q lost the prefix %q", doc, out, doc[:prefix])
		}
		if !bytes.HasPrefix(out[prefix:], []byte(secA)) {
			t.Fatalf("Splice(%q) = %q: section not at the top", doc, out)
		}
		if p, ok := ParseSection(out); !ok || p.Damaged {
			t.Fatalf("Splice(%q) = %q: ParseSection ok=%v damaged=%v", doc, out, ok, p.Damaged)
		}
		if l := scan(out); len(l.markers) != 2 {
			t.Fatalf("Splice(%q) = %q has %d markers, want 2", doc, out, len(l.markers))
		}

		again, err := Splice(out, secA)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("Splice not idempotent on %q:\nfirst  %q\nsecond %q (%v)", doc, out, again, err)
		}
		replaced, err := Splice(out, secB)
		want := string(out[:prefix]) + secB + string(out[prefix+len(secA):])
		if err != nil || string(replaced) != want {
			t.Fatalf("replacing the section of %q changed bytes outside it:\n got %q\nwant %q (%v)", out, replaced, want, err)
		}

		missing := mustKeepLines(doc, prefix)
		for _, line := range strings.Split(string(out[prefix:]), "\n") {
			line = strings.TrimSuffix(line, "\r")
			if missing[line] > 0 {
				missing[line]--
			}
		}
		for line, n := range missing {
			if n > 0 {
				t.Fatalf("Splice(%q) = %q lost the line %q", doc, out, line)
			}
		}
	})
}

// mustKeepLines counts the lines of doc's body (after its prefix) Splice may
// never drop.
func mustKeepLines(doc []byte, prefix int) map[string]int {
	handed := map[string]int{}
	if p, ok := ParseSection(doc); ok {
		for _, g := range p.Groups {
			if !g.Known {
				continue
			}
			for _, b := range g.Bullets {
				for _, line := range strings.Split(b.Raw, "\n") {
					handed[line]++
				}
			}
		}
	}
	keep := map[string]int{}
	for _, line := range strings.Split(string(doc[prefix:]), "\n") {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case isBlank(line), strings.Contains(line, "CREDENCE:BELIEFS"), isGeneratedLine(line):
		case handed[line] > 0:
			handed[line]--
		default:
			keep[line]++
		}
	}
	return keep
}
