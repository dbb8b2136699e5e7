package mcpserver

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/store"
)

// maxEpisodeChars bounds each episode quoted in a card, so one long
// exchange does not flood the model's context.
const maxEpisodeChars = 600

// cardText renders a belief's card for the model: what it says, how sure
// credence is and why, and, when a timeline is given, how that changed.
func cardText(c store.Card, timeline []store.TimelinePoint) string {
	b := c.Belief
	var w strings.Builder
	fmt.Fprintf(&w, "%s: %s\n", b.ID, b.Statement)
	fmt.Fprintf(&w, "triple: (%s, %s, %s); %s, %s scope", b.Subject, b.Predicate, b.Object, b.Kind, b.Scope)
	if b.ProjectPath != "" {
		fmt.Fprintf(&w, " (%s)", b.ProjectPath)
	}
	fmt.Fprintf(&w, "\nstatus: %s", b.Status)
	if b.Pinned {
		w.WriteString(", pinned")
	}
	fmt.Fprintf(&w, "\nconfidence: %.2f = alpha %.2f / (alpha %.2f + beta %.2f); %d evidence (%d supporting, %d contradicting, %d partial)\n",
		c.Confidence, c.Alpha, c.Alpha, c.Beta, b.EvidenceCount, b.Supports, b.Contradictions, b.Partials)
	if c.Contested {
		fmt.Fprintf(&w, "CONTESTED: competes with %d other belief(s) for the same slot; treat as uncertain (%.2f after normalization)\n",
			len(c.Rivals), c.Normalized)
	}
	for _, r := range []struct {
		label string
		b     *store.Belief
	}{{"revised from", c.Parent}, {"revised into", c.RevisedInto}, {"merged into", c.MergedInto}, {"superseded by", c.SupersededBy}} {
		if r.b != nil {
			fmt.Fprintf(&w, "%s: %s %s (%s)\n", r.label, ids.Short(r.b.ID), r.b.Statement, r.b.Status)
		}
	}
	fmt.Fprintf(&w, "evidence:\n")
	for _, e := range c.Evidence {
		fmt.Fprintf(&w, "- %s %s s=%+.1f rho=%.1f via %s", e.CreatedAt.UTC().Format("2006-01-02"), e.Label, e.Support, e.Reliability, e.Source)
		switch {
		case e.Episode != nil && !e.Episode.Forgotten:
			fmt.Fprintf(&w, ", episode %s: %s", ids.Short(e.Episode.ID), clip(e.Episode.Content, maxEpisodeChars))
		case e.EpisodeID != "":
			fmt.Fprintf(&w, ", episode %s (forgotten or on another machine)", ids.Short(e.EpisodeID))
		}
		w.WriteString("\n")
	}
	if len(timeline) > 0 {
		w.WriteString("confidence over time: ")
		for i, p := range timeline {
			if i > 0 {
				w.WriteString(" → ")
			}
			fmt.Fprintf(&w, "%.2f", p.Confidence)
			if p.Event != "" {
				fmt.Fprintf(&w, " (%s %s)", p.Event, p.At.UTC().Format("2006-01-02"))
			}
		}
		w.WriteString("\n")
	}
	return strings.TrimRight(w.String(), "\n")
}

// episodeText renders an episode and the beliefs it is evidence for.
func episodeText(e store.Episode, derived []store.Belief) string {
	var w strings.Builder
	fmt.Fprintf(&w, "%s: %s episode of %s", e.ID, e.Kind, e.CreatedAt.UTC().Format(time.RFC3339))
	if e.ProjectPath != "" {
		fmt.Fprintf(&w, " in %s", e.ProjectPath)
	}
	if e.Forgotten {
		w.WriteString("\n(forgotten: its text was purged)")
	} else {
		w.WriteString("\n" + e.Content)
	}
	for _, b := range derived {
		fmt.Fprintf(&w, "\nevidence for %s: %s (%s)", ids.Short(b.ID), b.Statement, b.Status)
	}
	return w.String()
}

func statusText(s StatusOutput) string {
	var w strings.Builder
	names := make([]string, 0, len(s.Beliefs))
	total := 0
	for st, n := range s.Beliefs {
		names = append(names, st)
		total += n
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d %s", s.Beliefs[n], n)
	}
	fmt.Fprintf(&w, "%s, %s (%s); %s mode, %s embedder", plural.Count(s.Episodes, "episode"), plural.Count(total, "belief"), strings.Join(parts, ", "), s.Mode, s.Embedder)
	switch {
	case s.AgentAlive:
		fmt.Fprintf(&w, "\nagent alive (heartbeat %s)", s.LastHeartbeat)
	case s.LastHeartbeat != "":
		fmt.Fprintf(&w, "\nagent NOT running (last heartbeat %s); run credence doctor", s.LastHeartbeat)
	default:
		w.WriteString("\nagent has never run; run credence install or credence agent")
	}
	if c := s.LastCycle; c != nil {
		fmt.Fprintf(&w, "\nlast consolidation %s: %s, %s, %s mode, %d+%d tokens", c.StartedAt, c.Status, plural.Count(c.Episodes, "episode"),
			c.Mode, c.PromptTokens, c.CompletionTokens)
		if c.Error != "" {
			fmt.Fprintf(&w, ", error: %s", c.Error)
		}
	}
	return w.String()
}

func saveText(s SaveOutput) string {
	var w strings.Builder
	fmt.Fprintf(&w, "Saved note %s.", ids.Short(s.EpisodeID))
	if s.Redacted {
		w.WriteString(" A secret in it was removed before storing.")
	}
	for _, b := range s.Beliefs {
		verb := "Reinforced"
		if b.Created {
			verb = "Created"
		}
		fmt.Fprintf(&w, "\n%s belief %s [%.2f]: %s", verb, ids.Short(b.ID), b.Confidence, b.Statement)
	}
	return w.String()
}

// forgetText says what memory_forget removed and what it kept, by ID, so
// Claude can tell the user exactly that.
func forgetText(f ForgetOutput) string {
	if len(f.Beliefs)+len(f.Episodes) == 0 {
		return "That was already forgotten."
	}
	var w strings.Builder
	w.WriteString("Forgot")
	if len(f.Beliefs) > 0 {
		fmt.Fprintf(&w, " belief %s", strings.Join(f.Beliefs, ", "))
		if len(f.Episodes) > 0 {
			w.WriteString(" and")
		}
	}
	switch len(f.Episodes) {
	case 0:
	case 1:
		fmt.Fprintf(&w, " episode %s", f.Episodes[0])
	default:
		fmt.Fprintf(&w, " %d episodes (%s)", len(f.Episodes), strings.Join(f.Episodes, ", "))
	}
	w.WriteString("; their text is purged from this machine's database, and other machines purge it when they sync.")
	if len(f.EpisodesKept) > 0 {
		fmt.Fprintf(&w, " Kept %d episode(s) it was learned from, which still hold what they said: %s.",
			len(f.EpisodesKept), strings.Join(f.EpisodesKept, ", "))
	}
	return w.String()
}

// clip squeezes white space and cuts text to n bytes on a rune boundary.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8Start(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
