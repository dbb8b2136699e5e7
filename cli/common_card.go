package cli

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/store"
)

// cardOptions choose how much of a card is printed.
type cardOptions struct {
	// episodeChars bounds each evidence episode's text; 0 prints it whole.
	episodeChars int
	// events prints the event log.
	events bool
}

// printCard writes a belief's card for people.
func printCard(w io.Writer, c store.Card, opt cardOptions) {
	b := c.Belief
	fmt.Fprintf(w, "%s  %s\n", b.ID, b.Statement)
	fmt.Fprintf(w, "  triple      (%s, %s, %s)\n", dashIfEmpty(b.Subject), dashIfEmpty(b.Predicate), dashIfEmpty(b.Object))
	if b.Context != "" || b.Timeframe != "" {
		fmt.Fprintf(w, "  context     %s %s\n", b.Context, b.Timeframe)
	}
	scope := b.Scope
	if b.Scope == belief.ScopeProject {
		scope += " " + b.ProjectPath
	}
	fmt.Fprintf(w, "  kind        %s, %s\n", b.Kind, scope)
	status := string(b.Status)
	if b.Pinned {
		status += ", pinned"
	}
	if b.PromotedAt != 0 {
		status += ", in MEMORY.md since " + formatMillis(b.PromotedAt)
	}
	fmt.Fprintf(w, "  status      %s\n", status)
	fmt.Fprintf(w, "  confidence  %.2f = α %.2f / (α %.2f + β %.2f)", c.Confidence, c.Alpha, c.Alpha, c.Beta)
	if math.Abs(c.Alpha-b.Alpha)+math.Abs(c.Beta-b.Beta) >= 0.005 {
		fmt.Fprintf(w, "  (stored α %.2f β %.2f, decayed since %s)", b.Alpha, b.Beta, formatMillis(b.CountsAt.Millis))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "  evidence    %s: %d supporting, %d contradicting, %d partial; peak %.2f\n",
		plural.Count(b.EvidenceCount, "piece"), b.Supports, b.Contradictions, b.Partials, b.Peak)
	if c.Exclusive {
		line := "exclusive predicate"
		if len(c.Rivals) > 0 {
			line = fmt.Sprintf("exclusive: %.2f after competing with %s", c.Normalized, plural.Count(len(c.Rivals), "rival"))
		}
		if c.Contested {
			line += "; CONTESTED (shown as uncertain, never promoted)"
		}
		fmt.Fprintf(w, "  group       %s\n", line)
		for _, r := range c.Rivals {
			fmt.Fprintf(w, "              vs %s  %s\n", ids.Short(r.ID), squeezeText(r.Statement, 60))
		}
	}
	fmt.Fprintf(w, "  created     %s, updated %s, last reinforced %s\n",
		formatMillis(b.CreatedAt), formatMillis(b.UpdatedAt), formatMillis(b.LastReinforced))
	printLineage(w, c)

	fmt.Fprintf(w, "\nEvidence (%d):\n", len(c.Evidence))
	if len(c.Evidence) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, e := range c.Evidence {
		fmt.Fprintf(w, "  %s %-11s s=%+.2f ρ=%.2f  %s  via %s\n", formatMillis(e.CreatedAt.UnixMilli()),
			e.Label, e.Support, e.Reliability, ids.Short(e.ID), dashIfEmpty(e.Source))
		if e.Note != "" {
			fmt.Fprintf(w, "      note: %s\n", squeezeText(e.Note, 200))
		}
		switch {
		case e.Episode != nil && e.Episode.Forgotten:
			fmt.Fprintf(w, "      episode %s (forgotten)\n", e.EpisodeID)
		case e.Episode != nil:
			text := e.Episode.Content
			if opt.episodeChars > 0 {
				text = squeezeText(text, opt.episodeChars)
			}
			fmt.Fprintf(w, "      episode %s, %s, session %s:\n", e.Episode.ID, e.Episode.Kind, dashIfEmpty(e.Episode.SessionID))
			fmt.Fprint(w, indent(text, "        "))
		case e.EpisodeID != "":
			fmt.Fprintf(w, "      episode %s (not on this machine)\n", e.EpisodeID)
		}
	}
	if opt.events {
		fmt.Fprintf(w, "\nHistory (%s):\n", plural.Count(len(c.Events), "event"))
		for _, e := range c.Events {
			fmt.Fprintf(w, "  %s  %-10s %s\n", formatMillis(e.CreatedAt.UnixMilli()), e.Kind, eventOrigin(e))
		}
	}
}

func printLineage(w io.Writer, c store.Card) {
	rel := func(label string, b *store.Belief) {
		if b != nil {
			fmt.Fprintf(w, "  %-11s %s  %s (%s)\n", label, ids.Short(b.ID), squeezeText(b.Statement, 60), b.Status)
		}
	}
	rel("parent", c.Parent)
	rel("revised to", c.RevisedInto)
	rel("merged into", c.MergedInto)
	rel("superseded", c.SupersededBy)
	for _, b := range c.Children {
		rel("split into", &b)
	}
	for _, b := range c.MergedFrom {
		rel("absorbed", &b)
	}
}

func eventOrigin(e store.Event) string {
	if e.EvidenceID != "" {
		return "evidence " + ids.Short(e.EvidenceID)
	}
	return "from " + e.Origin
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// sparkBlocks draw a value in [0, 1] as one character.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// confidenceSpark draws values in [0, 1] as a line of block characters.
func confidenceSpark(values []float64) string {
	var b strings.Builder
	for _, v := range values {
		i := int(unitClamp(v)*float64(len(sparkBlocks)-1) + 0.5)
		b.WriteRune(sparkBlocks[i])
	}
	return b.String()
}

// chartRows is the height of the confidence chart.
const chartRows = 8

// drawTimeline draws a belief's confidence over time as a small bar chart
// with a 0–1 axis, one column per point, events marked under the columns,
// and the dates of the first and last point.
func drawTimeline(w io.Writer, points []store.TimelinePoint) {
	if len(points) == 0 {
		fmt.Fprintln(w, "  (no history)")
		return
	}
	for row := chartRows; row >= 1; row-- {
		top := float64(row) / chartRows
		bottom := float64(row-1) / chartRows
		label := "    "
		switch row {
		case chartRows:
			label = "1.0 "
		case chartRows / 2:
			label = "0.5 "
		case 1:
			label = "0.0 "
		}
		var line strings.Builder
		for _, p := range points {
			v := unitClamp(p.Confidence)
			switch {
			case v >= top:
				line.WriteString("█")
			case v > bottom+(top-bottom)/2:
				line.WriteString("▄")
			case row == 1:
				line.WriteString("▁")
			default:
				line.WriteString(" ")
			}
		}
		fmt.Fprintf(w, "  %s│%s\n", label, strings.TrimRight(line.String(), " "))
	}
	var marks strings.Builder
	for _, p := range points {
		marks.WriteRune(eventMark(p.Event))
	}
	fmt.Fprintf(w, "      └%s\n", strings.Repeat("─", len(points)))
	fmt.Fprintf(w, "       %s\n", strings.TrimRight(marks.String(), " "))
	first, last := points[0], points[len(points)-1]
	fmt.Fprintf(w, "       %s → %s   %.2f → %.2f\n", formatMillis(first.At.UnixMilli()), formatMillis(last.At.UnixMilli()),
		first.Confidence, last.Confidence)
	fmt.Fprintln(w, "       marks: c create, + support, - contradiction, ~ partial, * status change, blank = decay")
}

func eventMark(k belief.EventKind) rune {
	switch k {
	case "":
		return ' '
	case belief.Create:
		return 'c'
	case belief.Reinforce:
		return '+'
	case belief.Contradict:
		return '-'
	case belief.PartialEvidence:
		return '~'
	}
	return '*'
}

func unitClamp(x float64) float64 {
	return min(max(x, 0), 1)
}
