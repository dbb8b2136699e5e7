package hooks

import (
	"context"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/credence-mem/credence/transcript"
)

// maxScans bounds the transcripts the agent keeps scanners for; past it
// they start over (a scanner is a few hundred bytes per prompt).
const maxScans = 256

// scans keeps, in the agent, one prompt scanner per transcript, so the
// Stop hook reads only what a turn appended instead of the whole session.
type scans struct {
	mu sync.Mutex
	m  map[string]*scanEntry
}

// scanEntry is one transcript's scanner and the file it was scanning.
type scanEntry struct {
	mu   sync.Mutex
	file os.FileInfo
	s    transcript.PromptScanner
}

// promptScans returns the agent's scanners, kept between events, or for a
// process that handles one event a fresh set that reads the transcript
// whole.
func (h *handler) promptScans() *scans {
	if h.shared != nil {
		return h.shared.scans
	}
	return &scans{}
}

// lastPrompt returns the last prompt of the transcript at path on a line
// that ends at or before limit (the whole file when limit <= 0), and its
// occurrence, resumed from the previous scan of the same file. A file that
// was replaced, or a limit before what was scanned, is scanned again from
// the start; a missing path, one that is not a regular file, a read cut
// short by ctx or by transcript.MaxReadBytes is an error.
func (c *scans) lastPrompt(ctx context.Context, path string, limit int64) (transcript.PromptRef, bool, error) {
	if path == "" {
		return transcript.PromptRef{}, false, errors.New("no transcript_path")
	}
	f, err := transcript.Open(ctx, path)
	if err != nil {
		return transcript.PromptRef{}, false, err
	}
	defer f.Close()
	fi := f.Stat()
	if limit <= 0 || limit > fi.Size() {
		limit = fi.Size()
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxScans {
		c.m = map[string]*scanEntry{}
	}
	e := c.m[path]
	if e == nil {
		e = &scanEntry{}
		c.m[path] = e
	}
	c.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.file == nil || !os.SameFile(e.file, fi) || limit < e.s.Offset() {
		e.s = transcript.PromptScanner{}
	}
	e.file = fi
	return e.s.Scan(io.NewSectionReader(f, 0, limit))
}
