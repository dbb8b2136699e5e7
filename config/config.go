package config

import (
	"time"

	"github.com/credence-mem/credence/config/defaults"
)

// Config holds every setting credence reads. Load fills it from defaults, the
// TOML file, the environment and flag overrides; Validate checks it.
//
// Struct tags drive everything generic: `toml` is the key in the file (and,
// upper-cased under the section, the CREDENCE_* environment name), `doc` is
// the reference text, `oneof` lists the allowed values, `secret` marks values
// that are never printed, `fallback` names a generic environment variable
// consulted below the file, `path` marks file paths (~ is expanded) and `def`
// describes a default that is derived at load time. Adding a setting is one
// line here plus its default in Default.
type Config struct {
	DataDir  string `toml:"data_dir" path:"true" def:"~/.local/share/credence" doc:"Directory holding the database and logs; the default follows $XDG_DATA_HOME."`
	LogLevel string `toml:"log_level" oneof:"debug,info,warn,error" doc:"Minimum level written to the log files."`

	Belief        BeliefConfig        `toml:"belief"`
	Consolidation ConsolidationConfig `toml:"consolidation"`
	Embedder      EmbedderConfig      `toml:"embedder"`
	LLM           LLMConfig           `toml:"llm"`
	Recall        RecallConfig        `toml:"recall"`
	Memory        MemoryConfig        `toml:"memory"`
	Sync          SyncConfig          `toml:"sync"`
	Hook          HookConfig          `toml:"hook"`

	// Paths are derived from HOME, the XDG variables, CLAUDE_CONFIG_DIR and
	// DataDir; they are not read from the file.
	Paths Paths `toml:"-"`

	// sources records which layer last set each dotted key.
	sources map[string]string
}

// BeliefConfig holds the belief math and lifecycle-gate constants (DESIGN §3).
type BeliefConfig struct {
	LearningRate            float64 `toml:"learning_rate" doc:"Multiplier on every piece of evidence's weight."`
	PriorAlpha              float64 `toml:"prior_alpha" doc:"Beta prior alpha0 a new belief starts from."`
	PriorBeta               float64 `toml:"prior_beta" doc:"Beta prior beta0 a new belief starts from."`
	Clock                   string  `toml:"clock" oneof:"wall,turn" doc:"Clock that drives decay: wall time or prompt turns."`
	HalfLifeDays            float64 `toml:"half_life_days" doc:"Half-life of evidence weight on the wall clock; 0 turns decay off."`
	DecayPerTurn            float64 `toml:"decay_per_turn" doc:"Decay rate lambda per turn on the turn clock."`
	ExclusivityEpsilon      float64 `toml:"exclusivity_epsilon" doc:"Added to the sum when normalizing an exclusive group."`
	ContestedMinConfidence  float64 `toml:"contested_min_confidence" doc:"A group is contested when two members reach this confidence."`
	ContestedMargin         float64 `toml:"contested_margin" doc:"A group is contested when its top two are within this margin."`
	ReviseConfidence        float64 `toml:"revise_confidence" doc:"Revision gate: confidence below this."`
	RevisePeak              float64 `toml:"revise_peak" doc:"Revision gate: peak confidence at least this."`
	ReviseMinContradictions int     `toml:"revise_min_contradictions" doc:"Revision gate: at least this many contradictions."`
	ReviseMinEvidence       int     `toml:"revise_min_evidence" doc:"Revision gate: at least this much evidence."`
	SplitMinContradictions  int     `toml:"split_min_contradictions" doc:"Split gate: at least this many contradictions."`
	SplitMinSupports        int     `toml:"split_min_supports" doc:"Split gate: at least this many supports."`
	SplitMinPartial         int     `toml:"split_min_partial" doc:"Split gate: at least this many PARTIAL judgements."`
	SplitMinEvidence        int     `toml:"split_min_evidence" doc:"Split gate: at least this much evidence."`
	MergeMinSimilarity      float64 `toml:"merge_min_similarity" doc:"Merge gate: cosine similarity above this; 0 uses the embedder's calibrated value."`
	MergeMinConfidence      float64 `toml:"merge_min_confidence" doc:"Merge gate: both beliefs' confidence above this."`
	MergeCooldownDays       int     `toml:"merge_cooldown_days" doc:"Merge gate: neither belief revised in this many days."`
	ArchiveConfidence       float64 `toml:"archive_confidence" doc:"Archive a belief whose confidence falls below this."`
	ArchiveStaleDays        int     `toml:"archive_stale_days" doc:"Archive a weakly evidenced belief not reinforced for this many days."`
	ArchiveMinEvidence      int     `toml:"archive_min_evidence" doc:"Stale beliefs with less evidence than this are archived."`
	StabilityInitialDays    float64 `toml:"stability_initial_days" doc:"Initial retrieval stability S in days."`
	StabilityMaxDays        float64 `toml:"stability_max_days" doc:"Cap on retrieval stability S in days."`
}

// ConsolidationConfig holds the agent's consolidation schedule and budgets
// (DESIGN §5).
type ConsolidationConfig struct {
	Interval           time.Duration `toml:"interval" doc:"Time between scheduled consolidation cycles."`
	EpisodeThreshold   int           `toml:"episode_threshold" doc:"Run a cycle early once this many new episodes are waiting."`
	CycleBudget        time.Duration `toml:"cycle_budget" doc:"Wall-time budget of one cycle; progress is saved when it runs out."`
	MaxClusters        int           `toml:"max_clusters" doc:"Clusters processed per cycle."`
	MaxClassifications int           `toml:"max_classifications" doc:"Existing beliefs classified per candidate (top by similarity)."`
	MinClusterSize     int           `toml:"min_cluster_size" doc:"Episodes a cluster needs before it becomes a candidate belief."`
	LLMCallTimeout     time.Duration `toml:"llm_call_timeout" doc:"Timeout of each LLM call during consolidation."`
	ClusterThreshold   float64       `toml:"cluster_threshold" doc:"Cosine similarity to join a cluster; 0 uses the embedder's calibrated value."`
	RelatedThreshold   float64       `toml:"related_threshold" doc:"Cosine similarity to classify against a belief; 0 uses the embedder's calibrated value."`
	ReinforceThreshold float64       `toml:"reinforce_threshold" doc:"Cosine similarity to reinforce a belief directly; 0 uses the embedder's calibrated value."`
	DedupeThreshold    float64       `toml:"dedupe_threshold" doc:"Cosine similarity at which two facts are duplicates; 0 uses the embedder's calibrated value."`
}

// EmbedderConfig selects and configures the embedder.
type EmbedderConfig struct {
	Kind         string        `toml:"kind" oneof:"offline,hashed,openai" doc:"Built-in offline embedder (word vectors with hashed features), its hashed features alone (hashed), or an OpenAI-compatible API; changing it needs credence reindex."`
	Model        string        `toml:"model" doc:"Embedding model name for the openai kind."`
	BaseURL      string        `toml:"base_url" fallback:"OPENAI_BASE_URL" doc:"OpenAI-compatible endpoint for the openai kind; empty means OpenAI."`
	APIKey       string        `toml:"api_key" secret:"true" fallback:"OPENAI_API_KEY" doc:"API key for the openai kind."`
	Dimensions   int           `toml:"dimensions" doc:"Requested vector size for the openai kind; 0 keeps the model's own."`
	QueryTimeout time.Duration `toml:"query_timeout" doc:"Timeout for embedding one query on the recall path."`
}

// LLMConfig configures the optional OpenAI-compatible chat model.
type LLMConfig struct {
	BaseURL    string        `toml:"base_url" fallback:"OPENAI_BASE_URL" doc:"OpenAI-compatible endpoint (Ollama, LM Studio, vLLM); setting it turns LLM mode on."`
	Model      string        `toml:"model" doc:"Chat model used for extraction, synthesis and classification."`
	APIKey     string        `toml:"api_key" secret:"true" fallback:"OPENAI_API_KEY" doc:"API key; setting it turns LLM mode on."`
	Timeout    time.Duration `toml:"timeout" doc:"Timeout of one LLM request."`
	MaxRetries int           `toml:"max_retries" doc:"Retries of a failed LLM request before falling back to offline mode."`
}

// RecallConfig holds the recall budget and ranking weights (DESIGN §6).
type RecallConfig struct {
	BudgetChars     int     `toml:"budget_chars" doc:"Characters of context a prompt normally receives."`
	MaxChars        int     `toml:"max_chars" doc:"Hard cap on the context given to Claude Code (at most 10000)."`
	MaxBeliefBites  int     `toml:"max_belief_bites" doc:"Beliefs shown per prompt."`
	MaxEpisodeBites int     `toml:"max_episode_bites" doc:"Episodes shown per prompt."`
	MinConfidence   float64 `toml:"min_confidence" doc:"Beliefs below this confidence are never recalled."`
	WeightVector    float64 `toml:"weight_vector" doc:"Score weight of confidence times vector similarity."`
	WeightRetrieval float64 `toml:"weight_retrieval" doc:"Score weight of retrieval strength."`
	WeightBM25      float64 `toml:"weight_bm25" doc:"Score weight of normalized BM25."`
}

// MemoryConfig controls the MEMORY.md files (DESIGN §7).
type MemoryConfig struct {
	GlobalPath          string        `toml:"global_path" path:"true" def:"~/.claude-memory/MEMORY.md" doc:"File that receives global beliefs."`
	ProjectTarget       string        `toml:"project_target" oneof:"claude,repo" doc:"Project beliefs go to ~/.claude/projects/<key>/memory/MEMORY.md (claude) or <repo>/.claude/memory/MEMORY.md (repo)."`
	AutoMemoryDirectory string        `toml:"auto_memory_directory" path:"true" doc:"Claude Code's autoMemoryDirectory when set; empty follows Claude Code's default."`
	MaxBeliefs          int           `toml:"max_beliefs" doc:"Bullets under ## Beliefs."`
	MaxFormer           int           `toml:"max_former" doc:"Bullets under ## Former Beliefs."`
	MaxSectionLines     int           `toml:"max_section_lines" doc:"Lines the whole credence section may take."`
	PromoteConfidence   float64       `toml:"promote_confidence" doc:"Promote a belief at or above this confidence."`
	PromoteMinEvidence  int           `toml:"promote_min_evidence" doc:"Promote a belief with at least this much evidence."`
	RemoveConfidence    float64       `toml:"remove_confidence" doc:"Remove a demoted belief below this confidence."`
	DemoteExpiryDays    int           `toml:"demote_expiry_days" doc:"Remove a demoted belief this many days after demotion."`
	MaxLines            int           `toml:"max_lines" doc:"Lines of MEMORY.md Claude Code loads; older sections are archived past it."`
	MaxBytes            int           `toml:"max_bytes" doc:"Bytes of MEMORY.md Claude Code loads; older sections are archived past it."`
	WatchDebounce       time.Duration `toml:"watch_debounce" doc:"Quiet time after a MEMORY.md edit before the agent reacts."`
	IndexLinks          string        `toml:"index_links" oneof:"auto,always,never" doc:"Write each promoted belief as an index line linking to a credence-<slug>.md detail file (Claude Code's one-file-per-memory layout): auto when the memory directory already holds a memory file of Claude Code's, always, or never (plain bullets, for Claude Code without that layout)."`
	IngestClaudeMemory  bool          `toml:"ingest_claude_memory" doc:"Read Claude Code's memory files (~/.claude/projects/<key>/memory/*.md) as episodes and their claims as evidence."`
	ModelReliability    float64       `toml:"model_reliability" doc:"Reliability of the claims of a memory file the model wrote or edited (assistant evidence)."`
	PersonReliability   float64       `toml:"person_reliability" doc:"Reliability of the claims of a memory file a person wrote or edited (user evidence)."`
	DeletedReliability  float64       `toml:"deleted_reliability" doc:"Reliability of the evidence against a memory file's claims when the model deletes the file or drops a claim from it (weak)."`
	EditAttribution     time.Duration `toml:"edit_attribution" doc:"How long after a memory file changes the agent waits for the PostToolUse hook's record of a model edit before calling it a person's."`
}

// SyncConfig configures optional sync through a remote libSQL database
// (DESIGN §8).
type SyncConfig struct {
	URL      string        `toml:"url" doc:"Remote libSQL URL (libsql://, https://, http:// or file:); empty turns sync off."`
	Token    string        `toml:"token" secret:"true" doc:"Auth token for the remote database."`
	Interval time.Duration `toml:"interval" doc:"Time between sync rounds."`
}

// HookConfig bounds the hook executables, which run on every prompt.
type HookConfig struct {
	StdinMaxBytes int64         `toml:"stdin_max_bytes" doc:"Most bytes a hook reads from stdin."`
	StdinTimeout  time.Duration `toml:"stdin_timeout" doc:"Longest a hook waits for stdin, never past hook.budget; a prompt that arrives within it is stored."`
	Budget        time.Duration `toml:"budget" doc:"Total time a hook may spend before it gives up silently."`
	LogMaxBytes   int64         `toml:"log_max_bytes" doc:"Size at which the hook log is rotated."`
}

// Default returns the built-in defaults: the seeds' constants. Derived paths
// (data_dir, memory.global_path) are left empty and filled by Load.
func Default() Config {
	return Config{
		LogLevel: defaults.LogLevel,
		Belief: BeliefConfig{
			LearningRate:            1.0,
			PriorAlpha:              1,
			PriorBeta:               1,
			Clock:                   "wall",
			HalfLifeDays:            365,
			DecayPerTurn:            0.002,
			ExclusivityEpsilon:      1e-6,
			ContestedMinConfidence:  0.55,
			ContestedMargin:         0.10,
			ReviseConfidence:        0.4,
			RevisePeak:              0.5,
			ReviseMinContradictions: 3,
			ReviseMinEvidence:       5,
			SplitMinContradictions:  3,
			SplitMinSupports:        3,
			SplitMinPartial:         2,
			SplitMinEvidence:        5,
			MergeMinSimilarity:      0, // the embedder's calibrated Merge (embed.ThresholdsFor)
			MergeMinConfidence:      0.6,
			MergeCooldownDays:       7,
			ArchiveConfidence:       0.3,
			ArchiveStaleDays:        90,
			ArchiveMinEvidence:      5,
			StabilityInitialDays:    1,
			StabilityMaxDays:        365,
		},
		Consolidation: ConsolidationConfig{
			Interval:           4 * time.Hour,
			EpisodeThreshold:   20,
			CycleBudget:        2 * time.Minute,
			MaxClusters:        10,
			MaxClassifications: 5,
			MinClusterSize:     3,
			LLMCallTimeout:     10 * time.Second,
		},
		Embedder: EmbedderConfig{
			Kind:         "offline",
			Model:        "text-embedding-3-small",
			QueryTimeout: 150 * time.Millisecond,
		},
		LLM: LLMConfig{
			Model:      "gpt-4.1-mini",
			Timeout:    10 * time.Second,
			MaxRetries: 3,
		},
		Recall: RecallConfig{
			BudgetChars:     2000,
			MaxChars:        10000,
			MaxBeliefBites:  2,
			MaxEpisodeBites: 3,
			MinConfidence:   0.4,
			WeightVector:    0.5,
			WeightRetrieval: 0.3,
			WeightBM25:      0.2,
		},
		Memory: MemoryConfig{
			ProjectTarget:      "claude",
			MaxBeliefs:         10,
			MaxFormer:          5,
			MaxSectionLines:    30,
			PromoteConfidence:  0.7,
			PromoteMinEvidence: 3,
			RemoveConfidence:   0.5,
			DemoteExpiryDays:   30,
			MaxLines:           200,
			MaxBytes:           25600,
			WatchDebounce:      300 * time.Millisecond,
			IndexLinks:         "auto",
			IngestClaudeMemory: true,
			ModelReliability:   0.6,
			PersonReliability:  0.9,
			DeletedReliability: 0.3,
			EditAttribution:    1500 * time.Millisecond,
		},
		Sync: SyncConfig{
			Interval: 5 * time.Minute,
		},
		Hook: HookConfig{
			StdinMaxBytes: defaults.HookStdinMaxBytes,
			StdinTimeout:  defaults.HookStdinTimeout,
			Budget:        defaults.HookBudget,
			LogMaxBytes:   defaults.HookLogMaxBytes,
		},
	}
}

// LLMEnabled reports whether LLM mode is on: an API key or a base URL is
// configured (a local server such as Ollama needs no key).
func (c *Config) LLMEnabled() bool {
	return c.LLM.APIKey != "" || c.LLM.BaseURL != ""
}

// SyncEnabled reports whether a remote database is configured.
func (c *Config) SyncEnabled() bool {
	return c.Sync.URL != ""
}

// Source names the layer that last set the dotted key ("default", the config
// file path, "env NAME" or "override"), for `credence config` and doctor.
func (c *Config) Source(key string) string {
	if s, ok := c.sources[key]; ok {
		return s
	}
	return "default"
}
