package recall

import (
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/internal/plural"
)

// Section headings of the rendered context (DESIGN §6).
const (
	HeadingFacts      = "## Known Facts"
	HeadingGuidelines = "## Behavioral Guidelines"
	HeadingEpisodes   = "## Episodic Memories"
)

// Rendering limits: a statement or an episode never takes more than this
// many bytes of the context, and an episode is not worth showing in fewer.
const (
	maxStatementBytes = 300
	maxEpisodeBytes   = 500
	minEpisodeBytes   = 80
	maxRivalBytes     = 120
	maxSaidBytes      = 240
	maxRivals         = 2
)

// Render formats a result as the additionalContext Claude Code receives:
// Known Facts, Behavioral Guidelines and Episodic Memories sections with one
// line per item, within budget characters and never over maxChars (both
// clamped to 10,000). Beliefs come first; episodes share what is left and
// are shortened to fit. It returns "" for an empty result.
func Render(r Result, budget, maxChars int) string {
	if r.Empty() {
		return ""
	}
	if maxChars <= 0 || maxChars > maxContextChars {
		maxChars = maxContextChars
	}
	if budget <= 0 || budget > maxChars {
		budget = maxChars
	}
	var facts, guides []string
	for _, b := range r.Beliefs {
		line := BeliefLine(b)
		if b.Kind == belief.KindGuideline {
			guides = append(guides, line)
		} else {
			facts = append(facts, line)
		}
	}
	var w sectionWriter
	w.limit = budget
	w.section(HeadingFacts, facts)
	w.section(HeadingGuidelines, guides)
	if len(r.Episodes) > 0 {
		w.episodes(r.Episodes)
	}
	out := strings.TrimRight(w.b.String(), "\n")
	if len(out) > maxChars {
		out = strings.TrimRight(cutBytes(out, maxChars), "\n")
	}
	return out
}

// BeliefLine renders one belief as
// "- [Belief 0.85] User prefers Bun over Node.js (bl_01J…, 7 sources)",
// saying when its exclusive group is contested.
func BeliefLine(b BeliefHit) string {
	tag := fmt.Sprintf("Belief %.2f", b.Confidence)
	note := ""
	if b.Contested {
		tag += ", contested"
		note = "; uncertain"
		var rivals []string
		for i, r := range b.Rivals {
			if i == maxRivals {
				rivals = append(rivals, fmt.Sprintf("%d more", len(b.Rivals)-i))
				break
			}
			rivals = append(rivals, fmt.Sprintf("%q %.2f %s", snippet(r.Statement, maxRivalBytes), r.Confidence, ids.Short(r.ID)))
		}
		if len(rivals) > 0 {
			note += ", competes with " + strings.Join(rivals, ", ")
		}
	}
	if b.SupersededBy != "" {
		tag += ", no longer current"
		note += "; now: " + snippet(b.SupersededBy, maxRivalBytes)
	} else if b.Doubted {
		tag += ", may be out of date"
		note += "; possibly replaced by a later message"
	} else if b.Earlier != "" {
		note += "; earlier: " + snippet(b.Earlier, maxRivalBytes)
	}
	if b.Said != "" {
		note += fmt.Sprintf("; as said: %q", snippet(b.Said, maxSaidBytes))
	}
	return fmt.Sprintf("- [%s] %s (%s, %s%s)", tag, snippet(b.Statement, maxStatementBytes), ids.Short(b.ID), plural.Count(b.Sources, "source"), note)
}

// EpisodeLine renders one episode as "- [2025-03-02 exchange] text (ep_01J…)"
// with the text cut to at most n bytes.
// An episode that states an earlier value of a slot (shown only when the
// prompt asks about the past) says so and what replaced it; one that
// names both the old and the new value says which is current.
func EpisodeLine(e EpisodeHit, n int) string {
	tag := e.CreatedAt.UTC().Format("2006-01-02") + " " + e.Kind
	note := ""
	switch {
	case e.SupersededBy != "":
		tag += ", earlier; now: " + snippet(e.SupersededBy, maxRivalBytes)
	case e.Note != "":
		note = "; " + e.Note
	}
	return fmt.Sprintf("- [%s] %s (%s%s)", tag, snippet(e.Text, n), ids.Short(e.ID), note)
}

// sectionWriter appends sections while they fit in limit bytes.
type sectionWriter struct {
	b     strings.Builder
	limit int
}

func (w *sectionWriter) left() int { return w.limit - w.b.Len() }

func (w *sectionWriter) section(heading string, lines []string) {
	if len(lines) == 0 {
		return
	}
	if w.b.Len() > 0 {
		heading = "\n" + heading
	}
	if w.left() < len(heading)+1+len(lines[0])+1 {
		return
	}
	w.b.WriteString(heading + "\n")
	for _, l := range lines {
		if w.left() < len(l)+1 {
			return
		}
		w.b.WriteString(l + "\n")
	}
}

// episodes writes the episodes section, giving each episode an equal share
// of the remaining budget, up to maxEpisodeBytes of text.
func (w *sectionWriter) episodes(eps []EpisodeHit) {
	heading := HeadingEpisodes + "\n"
	if w.b.Len() > 0 {
		heading = "\n" + heading
	}
	const overhead = len("- [2006-01-02 exchange]  (ep_0123456789…)\n")
	share := (w.left()-len(heading))/len(eps) - overhead
	share = min(share, maxEpisodeBytes)
	if share < minEpisodeBytes {
		// Too little room for all of them: show fewer, each readable.
		n := (w.left() - len(heading)) / (minEpisodeBytes + overhead)
		if n <= 0 {
			return
		}
		eps, share = eps[:min(n, len(eps))], minEpisodeBytes
	}
	var lines []string
	for _, e := range eps {
		lines = append(lines, EpisodeLine(e, share))
	}
	w.section(HeadingEpisodes, lines)
}
