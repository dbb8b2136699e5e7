package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/embed"
)

// TestThresholdsKeepCalibratedValues checks that a threshold the user did
// not set is the embedder's calibrated one, and that one they set wins, for
// each embedder: a config default must never stand in for a calibration
// (the offline embedder's Merge is 0.65; the seed's 0.92 used to override
// it).
func TestThresholdsKeepCalibratedValues(t *testing.T) {
	offline, openai := embed.NewOffline().ID(), "openai:text-embedding-3-small:1536"
	tests := []struct {
		name     string
		file     string            // config.toml, "" for none
		env      map[string]string // CREDENCE_* variables
		embedder string
		want     func(embed.Thresholds) embed.Thresholds
	}{
		{"nothing set, offline", "", nil, offline, nil},
		{"nothing set, openai", "", nil, openai, nil},
		{"merge set in the file", "[belief]\nmerge_min_similarity = 0.8\n", nil, offline,
			func(t embed.Thresholds) embed.Thresholds { t.Merge = 0.8; return t }},
		{"dedupe set in the environment", "", map[string]string{"CREDENCE_CONSOLIDATION_DEDUPE_THRESHOLD": "0.9"}, offline,
			func(t embed.Thresholds) embed.Thresholds { t.Dedupe = 0.9; return t }},
		{"every threshold set", "[belief]\nmerge_min_similarity = 0.91\n[consolidation]\ncluster_threshold = 0.5\n" +
			"related_threshold = 0.55\nreinforce_threshold = 0.85\ndedupe_threshold = 0.97\n", nil, openai,
			func(embed.Thresholds) embed.Thresholds {
				return embed.Thresholds{Cluster: 0.5, Related: 0.55, Reinforce: 0.85, Dedupe: 0.97, Merge: 0.91}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{"HOME": home}
			for k, v := range tt.env {
				env[k] = v
			}
			if tt.file != "" {
				path := filepath.Join(home, ".config", "credence", "config.toml")
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := LoadConfig(Options{Home: home, Env: config.EnvMap(env)})
			if err != nil {
				t.Fatalf("LoadConfig: %v", err)
			}
			want := embed.ThresholdsFor(tt.embedder)
			if tt.want != nil {
				want = tt.want(want)
			}
			if got := Thresholds(cfg, tt.embedder); got != want {
				t.Errorf("Thresholds(%s)=%+v, want %+v", tt.embedder, got, want)
			}
		})
	}
}
