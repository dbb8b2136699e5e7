package app

import (
	"io"
	"log/slog"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/logfile"
)

// OpenLog opens <logdir>/<component>.log (mode 0600, appending) and returns a
// JSON slog logger writing to it; see logfile.Open.
func OpenLog(cfg *config.Config, component string, maxBytes int64) (*slog.Logger, io.Closer, error) {
	return logfile.Open(cfg, component, maxBytes)
}
