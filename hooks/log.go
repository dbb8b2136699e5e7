package hooks

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
)

// defaultLogMaxBytes rotates the fallback log.
const defaultLogMaxBytes = 1 << 20

// openLog opens <logdir>/hook.log, or when the config could not be loaded
// or the log directory cannot be written (a read-only data directory, say),
// a per-user fallback file in the system temp directory, so a failure is
// never silent. With no writable file at all it discards.
func openLog(cfg *config.Config, cfgOK bool) (*slog.Logger, func()) {
	if cfg != nil && cfgOK {
		if log, c, err := app.OpenLog(cfg, "hook", cfg.Hook.LogMaxBytes); err == nil {
			return log, func() { c.Close() }
		}
	}
	path := FallbackLogPath()
	if fi, err := os.Stat(path); err == nil && fi.Size() > defaultLogMaxBytes {
		_ = os.Rename(path, path+".1") // best effort, as app.OpenLog
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return slog.New(slog.NewJSONHandler(io.Discard, nil)), func() {}
	}
	log := slog.New(slog.NewJSONHandler(f, nil)).With("component", "hook", "fallback_log", true)
	return log, func() { f.Close() }
}

// FallbackLogPath is where the hook logs when its configured log directory
// is unusable: credence-hook-<uid>.log in the system temp directory.
func FallbackLogPath() string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("credence-hook-%d.log", os.Getuid()))
}
