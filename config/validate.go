package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// MaxContextChars is the most context Claude Code accepts from a hook.
const MaxContextChars = 10000

// Problem is one invalid setting.
type Problem struct {
	Key     string // dotted key, e.g. "embedder.kind"
	Message string // what is wrong and how to fix it
}

// ValidationError lists every invalid setting at once, so a person fixes
// the file in one go.
type ValidationError struct {
	Problems []Problem
}

// Error returns one line per problem.
func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.Key + ": " + p.Message
	}
	return "invalid config:\n  " + strings.Join(lines, "\n  ")
}

// Validate checks every setting and returns a *ValidationError naming each
// bad field, what is allowed and where to set it, or nil.
func (c *Config) Validate() error {
	v := validator{c: c}
	v.generic()
	v.belief()
	v.consolidation()
	v.endpoints()
	v.recall()
	v.memory()
	v.syncAndHook()
	if len(v.problems) == 0 {
		return nil
	}
	// Report problems in the order the keys appear in the file.
	slices.SortStableFunc(v.problems, func(a, b Problem) int {
		return fieldOrder(a.Key) - fieldOrder(b.Key)
	})
	return &ValidationError{Problems: v.problems}
}

type validator struct {
	c        *Config
	problems []Problem
}

// check records a problem with key unless ok. The message gets the fix
// appended: the config file and the environment variable that set the key.
func (v *validator) check(ok bool, key, format string, args ...any) {
	if ok {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if f, found := lookupField(key); found {
		file := "~/.config/credence/config.toml"
		if p := v.c.Paths.ConfigFile; p != "" {
			file = tildePath(p, v.c.Paths.Home)
		}
		msg += fmt.Sprintf("; set it in %s or %s", file, f.Env)
	}
	v.problems = append(v.problems, Problem{Key: key, Message: msg})
}

func (v *validator) probability(key string, x float64) {
	v.check(x >= 0 && x <= 1, key, "must be between 0 and 1, got %g", x)
}

func (v *validator) nonNegative(key string, n int) {
	v.check(n >= 0, key, "must be 0 or more, got %d", n)
}

func (v *validator) positive(key string, n int) {
	v.check(n >= 1, key, "must be at least 1, got %d", n)
}

func (v *validator) positiveDuration(key string, d time.Duration) {
	v.check(d > 0, key, "must be a positive duration like \"10s\", got %q", formatDuration(d))
}

// generic checks what the struct tags declare: allowed values and absolute
// paths.
func (v *validator) generic() {
	for _, f := range Fields() {
		val := f.value(v.c)
		// Build the message only on failure: Validate runs on every prompt.
		if f.OneOf != nil && !slices.Contains(f.OneOf, val.String()) {
			v.check(false, f.Key, "must be %s, got %q", orList(f.OneOf), val.String())
		}
		if f.Path {
			p := val.String()
			v.check(p == "" || filepath.IsAbs(p), f.Key, "must be an absolute path or start with ~/, got %q", p)
		}
	}
}

func (v *validator) belief() {
	b := v.c.Belief
	v.check(b.LearningRate > 0, "belief.learning_rate", "must be above 0, got %g", b.LearningRate)
	v.check(b.PriorAlpha > 0, "belief.prior_alpha", "must be above 0, got %g", b.PriorAlpha)
	v.check(b.PriorBeta > 0, "belief.prior_beta", "must be above 0, got %g", b.PriorBeta)
	v.check(b.HalfLifeDays >= 0, "belief.half_life_days", "must be 0 (no decay) or more, got %g", b.HalfLifeDays)
	v.check(b.DecayPerTurn >= 0 && b.DecayPerTurn < 1, "belief.decay_per_turn", "must be at least 0 and below 1, got %g", b.DecayPerTurn)
	v.check(b.ExclusivityEpsilon >= 0 && b.ExclusivityEpsilon < 0.01, "belief.exclusivity_epsilon", "must be at least 0 and below 0.01, got %g", b.ExclusivityEpsilon)
	for key, x := range map[string]float64{
		"belief.contested_min_confidence": b.ContestedMinConfidence,
		"belief.contested_margin":         b.ContestedMargin,
		"belief.revise_confidence":        b.ReviseConfidence,
		"belief.revise_peak":              b.RevisePeak,
		"belief.merge_min_confidence":     b.MergeMinConfidence,
		"belief.archive_confidence":       b.ArchiveConfidence,
	} {
		v.probability(key, x)
	}
	v.check(b.MergeMinSimilarity >= 0 && b.MergeMinSimilarity <= 1, "belief.merge_min_similarity",
		"must be between 0 and 1 (0 uses the embedder's calibrated value), got %g", b.MergeMinSimilarity)
	v.check(b.ReviseConfidence < b.RevisePeak, "belief.revise_confidence",
		"must be below belief.revise_peak (%g), got %g", b.RevisePeak, b.ReviseConfidence)
	for key, n := range map[string]int{
		"belief.revise_min_contradictions": b.ReviseMinContradictions,
		"belief.revise_min_evidence":       b.ReviseMinEvidence,
		"belief.split_min_contradictions":  b.SplitMinContradictions,
		"belief.split_min_supports":        b.SplitMinSupports,
		"belief.split_min_partial":         b.SplitMinPartial,
		"belief.split_min_evidence":        b.SplitMinEvidence,
		"belief.merge_cooldown_days":       b.MergeCooldownDays,
		"belief.archive_stale_days":        b.ArchiveStaleDays,
		"belief.archive_min_evidence":      b.ArchiveMinEvidence,
	} {
		v.nonNegative(key, n)
	}
	v.check(b.StabilityInitialDays > 0, "belief.stability_initial_days", "must be above 0, got %g", b.StabilityInitialDays)
	v.check(b.StabilityMaxDays >= b.StabilityInitialDays, "belief.stability_max_days",
		"must be at least belief.stability_initial_days (%g), got %g", b.StabilityInitialDays, b.StabilityMaxDays)
}

func (v *validator) consolidation() {
	c := v.c.Consolidation
	v.positiveDuration("consolidation.interval", c.Interval)
	v.positiveDuration("consolidation.cycle_budget", c.CycleBudget)
	v.positiveDuration("consolidation.llm_call_timeout", c.LLMCallTimeout)
	v.positive("consolidation.episode_threshold", c.EpisodeThreshold)
	v.positive("consolidation.max_clusters", c.MaxClusters)
	v.positive("consolidation.max_classifications", c.MaxClassifications)
	v.positive("consolidation.min_cluster_size", c.MinClusterSize)
	for key, x := range map[string]float64{
		"consolidation.cluster_threshold":   c.ClusterThreshold,
		"consolidation.related_threshold":   c.RelatedThreshold,
		"consolidation.reinforce_threshold": c.ReinforceThreshold,
		"consolidation.dedupe_threshold":    c.DedupeThreshold,
	} {
		v.check(x >= 0 && x <= 1, key, "must be between 0 and 1 (0 uses the embedder's calibrated value), got %g", x)
	}
	if c.RelatedThreshold > 0 && c.ReinforceThreshold > 0 {
		v.check(c.RelatedThreshold < c.ReinforceThreshold, "consolidation.related_threshold",
			"must be below consolidation.reinforce_threshold (%g), got %g", c.ReinforceThreshold, c.RelatedThreshold)
	}
}

// endpoints checks the embedder and the LLM, which share the same kind of
// settings: an OpenAI-compatible URL, a key and timeouts.
func (v *validator) endpoints() {
	e := v.c.Embedder
	v.checkURL("embedder.base_url", e.BaseURL, "http", "https")
	v.nonNegative("embedder.dimensions", e.Dimensions)
	v.positiveDuration("embedder.query_timeout", e.QueryTimeout)
	if e.Kind == "openai" {
		v.check(e.Model != "", "embedder.model", "must name an embedding model when embedder.kind is \"openai\"")
		v.check(e.APIKey != "" || e.BaseURL != "", "embedder.api_key",
			"the openai embedder needs an API key (or a base_url for a local server); OPENAI_API_KEY works too")
	}

	l := v.c.LLM
	v.checkURL("llm.base_url", l.BaseURL, "http", "https")
	v.check(!v.c.LLMEnabled() || l.Model != "", "llm.model", "must name a chat model when LLM mode is on")
	v.positiveDuration("llm.timeout", l.Timeout)
	v.nonNegative("llm.max_retries", l.MaxRetries)
}

func (v *validator) checkURL(key, raw string, schemes ...string) {
	if raw == "" {
		return
	}
	u, err := url.Parse(raw)
	if err == nil && slices.Contains(schemes, u.Scheme) && (u.Scheme == "file" || u.Host != "") {
		return
	}
	prefixes := make([]string, len(schemes))
	for i, s := range schemes {
		prefixes[i] = s + "://"
		if s == "file" {
			prefixes[i] = "file:"
		}
	}
	v.check(false, key, "must be a URL starting with %s, got %q", orList(prefixes), raw)
}

func (v *validator) recall() {
	r := v.c.Recall
	v.check(r.MaxChars >= 1 && r.MaxChars <= MaxContextChars, "recall.max_chars",
		"must be between 1 and %d (Claude Code's limit), got %d", MaxContextChars, r.MaxChars)
	v.check(r.BudgetChars >= 1 && r.BudgetChars <= min(r.MaxChars, MaxContextChars), "recall.budget_chars",
		"must be between 1 and recall.max_chars (%d), got %d", min(r.MaxChars, MaxContextChars), r.BudgetChars)
	v.nonNegative("recall.max_belief_bites", r.MaxBeliefBites)
	v.nonNegative("recall.max_episode_bites", r.MaxEpisodeBites)
	v.probability("recall.min_confidence", r.MinConfidence)
	v.probability("recall.weight_vector", r.WeightVector)
	v.probability("recall.weight_retrieval", r.WeightRetrieval)
	v.probability("recall.weight_bm25", r.WeightBM25)
	v.check(r.WeightVector+r.WeightRetrieval+r.WeightBM25 > 0, "recall.weight_vector",
		"recall.weight_vector, weight_retrieval and weight_bm25 must not all be 0")
}

func (v *validator) memory() {
	m := v.c.Memory
	v.nonNegative("memory.max_beliefs", m.MaxBeliefs)
	v.nonNegative("memory.max_former", m.MaxFormer)
	v.positive("memory.max_section_lines", m.MaxSectionLines)
	v.probability("memory.promote_confidence", m.PromoteConfidence)
	v.probability("memory.remove_confidence", m.RemoveConfidence)
	v.check(m.RemoveConfidence <= m.PromoteConfidence, "memory.remove_confidence",
		"must not be above memory.promote_confidence (%g), got %g", m.PromoteConfidence, m.RemoveConfidence)
	v.positive("memory.promote_min_evidence", m.PromoteMinEvidence)
	v.nonNegative("memory.demote_expiry_days", m.DemoteExpiryDays)
	v.check(m.MaxLines > m.MaxSectionLines, "memory.max_lines",
		"must be above memory.max_section_lines (%d), got %d", m.MaxSectionLines, m.MaxLines)
	v.positive("memory.max_bytes", m.MaxBytes)
	v.check(m.WatchDebounce >= 0, "memory.watch_debounce", "must not be negative, got %q", formatDuration(m.WatchDebounce))
	v.probability("memory.model_reliability", m.ModelReliability)
	v.probability("memory.person_reliability", m.PersonReliability)
	v.probability("memory.deleted_reliability", m.DeletedReliability)
	v.check(m.EditAttribution >= 0, "memory.edit_attribution", "must not be negative, got %q", formatDuration(m.EditAttribution))
}

func (v *validator) syncAndHook() {
	s := v.c.Sync
	v.checkURL("sync.url", s.URL, "libsql", "https", "http", "wss", "ws", "file")
	v.check(s.Token == "" || s.URL != "", "sync.url", "must be set when sync.token is (CREDENCE_SYNC_URL)")
	v.positiveDuration("sync.interval", s.Interval)

	h := v.c.Hook
	v.check(h.StdinMaxBytes > 0, "hook.stdin_max_bytes", "must be above 0, got %d", h.StdinMaxBytes)
	v.positiveDuration("hook.stdin_timeout", h.StdinTimeout)
	v.positiveDuration("hook.budget", h.Budget)
	v.check(h.LogMaxBytes > 0, "hook.log_max_bytes", "must be above 0, got %d", h.LogMaxBytes)
}

// orList quotes the values and joins them: `"a", "b" or "c"`.
func orList(values []string) string {
	q := quoteAll(values)
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// fieldOrder is the position of key in Fields, for sorting.
func fieldOrder(key string) int {
	for i, f := range Fields() {
		if f.Key == key {
			return i
		}
	}
	return len(Fields())
}

// tildePath writes path with a leading home directory as ~, for messages.
func tildePath(path, home string) string {
	if home != "" {
		if rel, err := filepath.Rel(home, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return path
}
