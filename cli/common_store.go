package cli

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/store"
)

// commandBusyTimeout is how long a CLI command waits for the agent or a hook to
// finish a write. People can wait longer than a hook can.
const commandBusyTimeout = 15 * time.Second

// openDatabase loads the configuration and opens the database for a command.
// The caller closes the database.
func openDatabase(env *Env) (*config.Config, *store.DB, error) {
	cfg, err := env.Config()
	if err != nil {
		return nil, nil, err
	}
	db, err := app.OpenStore(env.Ctx, cfg, commandBusyTimeout)
	if err != nil {
		return nil, nil, err
	}
	return cfg, db, nil
}

// idKindOf tells what an ID the user typed names.
func idKindOf(id string) string {
	switch {
	case strings.HasPrefix(id, "bl_"):
		return "belief"
	case strings.HasPrefix(id, "ep_"):
		return "episode"
	}
	return ""
}

// workingProject returns the project the command runs in: the git root of
// the working directory (or the directory itself), as the hooks record it.
func workingProject(env *Env) string {
	if p := env.getenv("CLAUDE_PROJECT_DIR"); p != "" {
		return recall.ProjectRoot(p)
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return recall.ProjectRoot(wd)
}

// projectFlag turns a --project value into a project root: "" means none,
// "." the current project, and a path its git root (or the path itself).
func projectFlag(env *Env, flagValue string) string {
	switch flagValue {
	case "":
		return ""
	case ".":
		return workingProject(env)
	}
	if abs, err := filepath.Abs(flagValue); err == nil {
		return recall.ProjectRoot(abs)
	}
	return flagValue
}

// formatMillis formats a Unix-ms timestamp for people, "never" for zero.
func formatMillis(ms int64) string {
	if ms == 0 {
		return "never"
	}
	return time.UnixMilli(ms).Local().Format("2006-01-02 15:04")
}

// squeezeText squeezes white space and cuts text to at most n runes, for
// listings.
func squeezeText(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	if len(r) <= n {
		return text
	}
	return string(r[:max(n-1, 1)]) + "…"
}

// countNoun is plural.Count under the name cli/forget.go still uses.
var countNoun = plural.Count
