package logfile

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/config/defaults"
	"github.com/credence-mem/credence/internal/rotfile"
)

// defaultFallbackMaxBytes rotates the hook's fallback log.
const defaultFallbackMaxBytes = 1 << 20

// Open opens <logdir>/<component>.log (mode 0600, appending) and returns a
// JSON slog logger writing to it at the configured level. Whenever the file
// would grow past maxBytes it is moved to <component>.log.1 and started
// again, so logs never grow without bound, however long the process runs.
func Open(cfg *config.Config, component string, maxBytes int64) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(cfg.Paths.LogDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	path := filepath.Join(cfg.Paths.LogDir, component+".log")
	f, err := rotfile.Open(path, maxBytes)
	if err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	level := slog.LevelInfo
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	h := slog.NewJSONHandler(f, &slog.HandlerOptions{Level: level})
	return newComponentLogger(h, component), f, nil
}

// OpenHook opens the hook's log: <logdir>/hook.log, or when the config could
// not be loaded (cfgOK false) or the log directory cannot be written (a
// read-only data directory, say), HookFallbackPath, so a failure is never
// silent. With no writable file at all it discards. The returned func closes
// the file.
func OpenHook(cfg *config.Config, cfgOK bool) (*slog.Logger, func()) {
	if cfg != nil && cfgOK {
		if log, c, err := Open(cfg, "hook", cfg.Hook.LogMaxBytes); err == nil {
			return log, func() { c.Close() }
		}
	}
	f, err := rotfile.Open(HookFallbackPath(), defaultFallbackMaxBytes)
	if err != nil {
		return slog.New(slog.DiscardHandler), func() {}
	}
	log := newComponentLogger(slog.NewJSONHandler(f, nil), "hook").With("fallback_log", true)
	return log, func() { f.Close() }
}

// HookFallbackPath is where the hook logs when its configured log directory
// is unusable: credence-hook-<uid>.log in the system temp directory.
func HookFallbackPath() string { return defaults.HookFallbackLog() }
