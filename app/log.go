package app

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/credence-mem/credence/config"
)

// OpenLog opens <logdir>/<component>.log (mode 0600, appending) and returns a
// JSON slog logger writing to it. When the file has grown past maxBytes it is
// moved to <component>.log.1 first, so logs never grow without bound.
func OpenLog(cfg *config.Config, component string, maxBytes int64) (*slog.Logger, io.Closer, error) {
	if err := os.MkdirAll(cfg.Paths.LogDir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	path := filepath.Join(cfg.Paths.LogDir, component+".log")
	if fi, err := os.Stat(path); err == nil && maxBytes > 0 && fi.Size() > maxBytes {
		_ = os.Rename(path, path+".1") // best effort: a lost rotation only means a longer file
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open log: %w", err)
	}
	level := slog.LevelInfo
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	h := slog.NewJSONHandler(f, &slog.HandlerOptions{Level: level})
	return slog.New(h).With("component", component), f, nil
}
