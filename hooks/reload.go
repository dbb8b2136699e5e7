package hooks

import (
	"os"
	"sync"
	"time"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/recall"
)

// reloader watches the config file for the server: a person who edits
// [recall] or [hook] expects the next prompt to follow, not the next
// agent restart.
type reloader struct {
	mu    sync.Mutex
	load  func() (*config.Config, error)
	stamp fileStamp
}

// fileStamp is what a stat says about a file: enough to notice an edit.
type fileStamp struct {
	exists  bool
	size    int64
	modTime time.Time
}

func (a fileStamp) same(b fileStamp) bool {
	return a.exists == b.exists && a.size == b.size && a.modTime.Equal(b.modTime)
}

func stampOf(path string) fileStamp {
	fi, err := os.Stat(path)
	if err != nil {
		return fileStamp{}
	}
	return fileStamp{exists: true, size: fi.Size(), modTime: fi.ModTime()}
}

// SetReload gives the server the way its config was loaded (the agent's
// flags and environment), so that it can load it again when the file
// changes. Call it before Serve; without it the config stays as given.
func (s *Server) SetReload(load func() (*config.Config, error)) {
	s.reload.mu.Lock()
	s.reload.load = load
	s.reload.mu.Unlock()
}

// refresh reloads the config when its file changed since it was last
// read: one stat per event. A file that no longer loads is logged and the
// config before it kept. The database stays the one the server opened: a
// config naming another is logged, and hooks for it decline here and run
// in-process until the agent restarts.
func (s *Server) refresh() {
	s.reload.mu.Lock()
	defer s.reload.mu.Unlock()
	cur := s.cfg.Load()
	st := stampOf(cur.Paths.ConfigFile)
	if s.reload.load == nil || st.same(s.reload.stamp) {
		return
	}
	s.reload.stamp = st
	cfg, err := s.reload.load()
	if err != nil {
		s.log.Warn("the config file changed but does not load; hooks keep the config loaded before", "err", safe(err))
		return
	}
	if cfg.Paths.Database != s.dbPath {
		s.log.Warn("the config names another database; restart the agent to serve it", "database", cfg.Paths.Database)
	}
	sh := *s.sh.Load()
	if cfg.Embedder != cur.Embedder {
		sh.emb, sh.embErr = recall.NewQueryEmbedder(cfg)
	}
	s.cfg.Store(cfg)
	s.sh.Store(&sh)
	s.log.Info("config reloaded for hooks", "file", cfg.Paths.ConfigFile)
}
