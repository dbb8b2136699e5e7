package hooks

import (
	"log/slog"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/logfile"
)

// openLog opens the hook log; see logfile.OpenHook.
func openLog(cfg *config.Config, cfgOK bool) (*slog.Logger, func()) {
	return logfile.OpenHook(cfg, cfgOK)
}

// FallbackLogPath is where the hook logs when its configured log directory
// is unusable; see logfile.HookFallbackPath.
func FallbackLogPath() string { return logfile.HookFallbackPath() }
