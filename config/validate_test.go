package config

import (
	"errors"
	"strings"
	"testing"
)

func TestDefaultsAreValid(t *testing.T) {
	cfg, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(nil)})
	if err != nil {
		t.Fatalf("Load with defaults: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate() on defaults = %v, want nil", err)
	}
}

func TestValidateErrors(t *testing.T) {
	tests := []struct {
		name      string
		overrides map[string]string
		key       string // the key the problem must name
		want      string // a fragment of the message
	}{
		{"log level", map[string]string{"log_level": "loud"}, "log_level", `must be "debug", "info", "warn" or "error"`},
		{"data dir relative", map[string]string{"data_dir": "data"}, "data_dir", "absolute path"},
		{"learning rate", map[string]string{"belief.learning_rate": "0"}, "belief.learning_rate", "above 0"},
		{"prior alpha", map[string]string{"belief.prior_alpha": "-1"}, "belief.prior_alpha", "above 0"},
		{"prior beta", map[string]string{"belief.prior_beta": "0"}, "belief.prior_beta", "above 0"},
		{"clock", map[string]string{"belief.clock": "lunar"}, "belief.clock", `must be "wall" or "turn"`},
		{"half life", map[string]string{"belief.half_life_days": "-3"}, "belief.half_life_days", "0 (no decay) or more"},
		{"decay per turn", map[string]string{"belief.decay_per_turn": "1.5"}, "belief.decay_per_turn", "below 1"},
		{"epsilon", map[string]string{"belief.exclusivity_epsilon": "0.5"}, "belief.exclusivity_epsilon", "below 0.01"},
		{"contested confidence", map[string]string{"belief.contested_min_confidence": "1.2"}, "belief.contested_min_confidence", "between 0 and 1"},
		{"contested margin", map[string]string{"belief.contested_margin": "-0.1"}, "belief.contested_margin", "between 0 and 1"},
		{"revise confidence range", map[string]string{"belief.revise_confidence": "2"}, "belief.revise_confidence", "between 0 and 1"},
		{"revise below peak", map[string]string{"belief.revise_confidence": "0.6"}, "belief.revise_confidence", "below belief.revise_peak"},
		{"revise peak", map[string]string{"belief.revise_peak": "3"}, "belief.revise_peak", "between 0 and 1"},
		{"revise contradictions", map[string]string{"belief.revise_min_contradictions": "-1"}, "belief.revise_min_contradictions", "0 or more"},
		{"revise evidence", map[string]string{"belief.revise_min_evidence": "-1"}, "belief.revise_min_evidence", "0 or more"},
		{"split contradictions", map[string]string{"belief.split_min_contradictions": "-1"}, "belief.split_min_contradictions", "0 or more"},
		{"split supports", map[string]string{"belief.split_min_supports": "-1"}, "belief.split_min_supports", "0 or more"},
		{"split partial", map[string]string{"belief.split_min_partial": "-1"}, "belief.split_min_partial", "0 or more"},
		{"split evidence", map[string]string{"belief.split_min_evidence": "-1"}, "belief.split_min_evidence", "0 or more"},
		{"merge similarity", map[string]string{"belief.merge_min_similarity": "1.1"}, "belief.merge_min_similarity", "between 0 and 1"},
		{"merge confidence", map[string]string{"belief.merge_min_confidence": "-1"}, "belief.merge_min_confidence", "between 0 and 1"},
		{"merge cooldown", map[string]string{"belief.merge_cooldown_days": "-7"}, "belief.merge_cooldown_days", "0 or more"},
		{"archive confidence", map[string]string{"belief.archive_confidence": "1.3"}, "belief.archive_confidence", "between 0 and 1"},
		{"archive stale days", map[string]string{"belief.archive_stale_days": "-1"}, "belief.archive_stale_days", "0 or more"},
		{"archive evidence", map[string]string{"belief.archive_min_evidence": "-1"}, "belief.archive_min_evidence", "0 or more"},
		{"stability initial", map[string]string{"belief.stability_initial_days": "0"}, "belief.stability_initial_days", "above 0"},
		{"stability max", map[string]string{"belief.stability_max_days": "0.5"}, "belief.stability_max_days", "at least belief.stability_initial_days"},
		{"interval", map[string]string{"consolidation.interval": "0s"}, "consolidation.interval", "positive duration"},
		{"cycle budget", map[string]string{"consolidation.cycle_budget": "-1m"}, "consolidation.cycle_budget", "positive duration"},
		{"llm call timeout", map[string]string{"consolidation.llm_call_timeout": "0s"}, "consolidation.llm_call_timeout", "positive duration"},
		{"episode threshold", map[string]string{"consolidation.episode_threshold": "0"}, "consolidation.episode_threshold", "at least 1"},
		{"max clusters", map[string]string{"consolidation.max_clusters": "0"}, "consolidation.max_clusters", "at least 1"},
		{"max classifications", map[string]string{"consolidation.max_classifications": "0"}, "consolidation.max_classifications", "at least 1"},
		{"min cluster size", map[string]string{"consolidation.min_cluster_size": "0"}, "consolidation.min_cluster_size", "at least 1"},
		{"cluster threshold", map[string]string{"consolidation.cluster_threshold": "1.5"}, "consolidation.cluster_threshold", "calibrated"},
		{"related threshold", map[string]string{"consolidation.related_threshold": "-0.2"}, "consolidation.related_threshold", "calibrated"},
		{"reinforce threshold", map[string]string{"consolidation.reinforce_threshold": "2"}, "consolidation.reinforce_threshold", "calibrated"},
		{"dedupe threshold", map[string]string{"consolidation.dedupe_threshold": "2"}, "consolidation.dedupe_threshold", "calibrated"},
		{"related above reinforce", map[string]string{"consolidation.related_threshold": "0.9", "consolidation.reinforce_threshold": "0.8"}, "consolidation.related_threshold", "below consolidation.reinforce_threshold"},
		{"embedder kind", map[string]string{"embedder.kind": "bert"}, "embedder.kind", `must be "offline", "hashed" or "openai"`},
		{"embedder base url", map[string]string{"embedder.base_url": "localhost:11434"}, "embedder.base_url", "http://"},
		{"embedder dimensions", map[string]string{"embedder.dimensions": "-1"}, "embedder.dimensions", "0 or more"},
		{"embedder query timeout", map[string]string{"embedder.query_timeout": "0s"}, "embedder.query_timeout", "positive duration"},
		{"openai embedder without a key", map[string]string{"embedder.kind": "openai"}, "embedder.api_key", "needs an API key"},
		{"openai embedder without a model", map[string]string{"embedder.kind": "openai", "embedder.api_key": "k", "embedder.model": ""}, "embedder.model", "embedding model"},
		{"llm base url", map[string]string{"llm.base_url": "ftp://x"}, "llm.base_url", "http://"},
		{"llm model", map[string]string{"llm.api_key": "k", "llm.model": ""}, "llm.model", "chat model"},
		{"llm timeout", map[string]string{"llm.timeout": "0s"}, "llm.timeout", "positive duration"},
		{"llm retries", map[string]string{"llm.max_retries": "-1"}, "llm.max_retries", "0 or more"},
		{"max chars over the limit", map[string]string{"recall.max_chars": "20000"}, "recall.max_chars", "between 1 and 10000"},
		{"budget over the limit", map[string]string{"recall.budget_chars": "12000"}, "recall.budget_chars", "between 1 and recall.max_chars (10000)"},
		{"budget over max chars", map[string]string{"recall.max_chars": "1500"}, "recall.budget_chars", "recall.max_chars (1500)"},
		{"budget zero", map[string]string{"recall.budget_chars": "0"}, "recall.budget_chars", "between 1"},
		{"belief bites", map[string]string{"recall.max_belief_bites": "-1"}, "recall.max_belief_bites", "0 or more"},
		{"episode bites", map[string]string{"recall.max_episode_bites": "-1"}, "recall.max_episode_bites", "0 or more"},
		{"recall min confidence", map[string]string{"recall.min_confidence": "1.5"}, "recall.min_confidence", "between 0 and 1"},
		{"weight vector", map[string]string{"recall.weight_vector": "-0.5"}, "recall.weight_vector", "between 0 and 1"},
		{"weight retrieval", map[string]string{"recall.weight_retrieval": "2"}, "recall.weight_retrieval", "between 0 and 1"},
		{"weight bm25", map[string]string{"recall.weight_bm25": "2"}, "recall.weight_bm25", "between 0 and 1"},
		{"all weights zero", map[string]string{"recall.weight_vector": "0", "recall.weight_retrieval": "0", "recall.weight_bm25": "0"}, "recall.weight_vector", "must not all be 0"},
		{"global path relative", map[string]string{"memory.global_path": "MEMORY.md"}, "memory.global_path", "absolute path"},
		{"project target", map[string]string{"memory.project_target": "home"}, "memory.project_target", `must be "claude" or "repo"`},
		{"auto memory directory relative", map[string]string{"memory.auto_memory_directory": "mem"}, "memory.auto_memory_directory", "absolute path"},
		{"max beliefs", map[string]string{"memory.max_beliefs": "-1"}, "memory.max_beliefs", "0 or more"},
		{"max former", map[string]string{"memory.max_former": "-1"}, "memory.max_former", "0 or more"},
		{"max section lines", map[string]string{"memory.max_section_lines": "0"}, "memory.max_section_lines", "at least 1"},
		{"promote confidence", map[string]string{"memory.promote_confidence": "1.5"}, "memory.promote_confidence", "between 0 and 1"},
		{"remove confidence range", map[string]string{"memory.remove_confidence": "-1"}, "memory.remove_confidence", "between 0 and 1"},
		{"remove above promote", map[string]string{"memory.remove_confidence": "0.8"}, "memory.remove_confidence", "memory.promote_confidence"},
		{"promote evidence", map[string]string{"memory.promote_min_evidence": "0"}, "memory.promote_min_evidence", "at least 1"},
		{"demote expiry", map[string]string{"memory.demote_expiry_days": "-1"}, "memory.demote_expiry_days", "0 or more"},
		{"max lines", map[string]string{"memory.max_lines": "20"}, "memory.max_lines", "above memory.max_section_lines"},
		{"max bytes", map[string]string{"memory.max_bytes": "0"}, "memory.max_bytes", "at least 1"},
		{"watch debounce", map[string]string{"memory.watch_debounce": "-1s"}, "memory.watch_debounce", "negative"},
		{"sync url scheme", map[string]string{"sync.url": "postgres://db"}, "sync.url", `"libsql://"`},
		{"sync token without url", map[string]string{"sync.token": "t"}, "sync.url", "must be set when sync.token is"},
		{"sync interval", map[string]string{"sync.interval": "0s"}, "sync.interval", "positive duration"},
		{"stdin max bytes", map[string]string{"hook.stdin_max_bytes": "0"}, "hook.stdin_max_bytes", "above 0"},
		{"stdin timeout", map[string]string{"hook.stdin_timeout": "0s"}, "hook.stdin_timeout", "positive duration"},
		{"hook budget", map[string]string{"hook.budget": "0s"}, "hook.budget", "positive duration"},
		{"log max bytes", map[string]string{"hook.log_max_bytes": "0"}, "hook.log_max_bytes", "above 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(nil), Overrides: tt.overrides})
			var verr *ValidationError
			if !errors.As(err, &verr) {
				t.Fatalf("Load error = %v, want a *ValidationError", err)
			}
			if cfg == nil {
				t.Errorf("Load returned a nil config with its validation error")
			}
			f, _ := lookupField(tt.key)
			for _, p := range verr.Problems {
				if p.Key != tt.key {
					continue
				}
				if !strings.Contains(p.Message, tt.want) {
					t.Errorf("problem %q does not contain %q", p.Message, tt.want)
				}
				fix := "set it in ~/.config/credence/config.toml or " + f.Env
				if !strings.Contains(p.Message, fix) {
					t.Errorf("problem %q does not name the fix %q", p.Message, fix)
				}
				if !strings.Contains(err.Error(), tt.key+": ") {
					t.Errorf("Error() = %q, want it to name %s", err, tt.key)
				}
				return
			}
			t.Errorf("no problem for %s in %v", tt.key, verr)
		})
	}
}

func TestValidateExactMessage(t *testing.T) {
	_, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(map[string]string{"CREDENCE_EMBEDDER_KIND": "bert"})})
	want := `embedder.kind: must be "offline", "hashed" or "openai", got "bert"; set it in ~/.config/credence/config.toml or CREDENCE_EMBEDDER_KIND`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load error = %v, want it to contain %q", err, want)
	}
}

func TestValidateReportsEveryProblemInFileOrder(t *testing.T) {
	_, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(nil), Overrides: map[string]string{
		"hook.budget": "0s", "log_level": "loud", "recall.max_chars": "0",
	}})
	var verr *ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("Load error = %v, want a *ValidationError", err)
	}
	var keys []string
	for _, p := range verr.Problems {
		keys = append(keys, p.Key)
	}
	want := "log_level recall.budget_chars recall.max_chars hook.budget"
	if got := strings.Join(keys, " "); got != want {
		t.Errorf("problem keys = %q, want %q", got, want)
	}
}

func TestValidateAcceptsGoodValues(t *testing.T) {
	tests := []struct {
		name      string
		overrides map[string]string
	}{
		{"ollama llm without a key", map[string]string{"llm.base_url": "http://localhost:11434/v1"}},
		{"openai embedder with a local server", map[string]string{"embedder.kind": "openai", "embedder.base_url": "http://127.0.0.1:1234/v1"}},
		{"file sync url", map[string]string{"sync.url": "file:/tmp/remote.db"}},
		{"turso sync url", map[string]string{"sync.url": "libsql://db-me.turso.io", "sync.token": "t"}},
		{"turn clock and no decay", map[string]string{"belief.clock": "turn", "belief.half_life_days": "0"}},
		{"budget at the limit", map[string]string{"recall.budget_chars": "10000"}},
		{"repo target", map[string]string{"memory.project_target": "repo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Load(LoadOptions{Home: t.TempDir(), Env: EnvMap(nil), Overrides: tt.overrides}); err != nil {
				t.Errorf("Load(%v) = %v, want nil", tt.overrides, err)
			}
		})
	}
}
