// Package rotfile is credence's append-only log file that rotates itself.
// It is a leaf, so credence-hook's front can write its rare log lines
// without linking package logfile's slog set-up.
package rotfile

import (
	"os"
	"sync"
)

// File is an append-only log file that rotates itself: before each write
// it reopens the file when another process has rotated it (the path no
// longer names the file it holds) and moves it to path.1 once it would grow
// past max. A long-lived process (the agent) stays within bounds this way;
// a short-lived one pays a stat per log line, which logs rarely need.
type File struct {
	mu   sync.Mutex
	path string
	max  int64 // 0 never rotates
	f    *os.File
	fi   os.FileInfo
	size int64
}

// Open opens path for appending (mode 0600, created when missing),
// rotating it first when it is over max bytes (0: never).
func Open(path string, max int64) (*File, error) {
	r := &File{path: path, max: max}
	if err := r.open(); err != nil {
		return nil, err
	}
	return r, nil
}

// open (re)opens the path, first rotating it when it is over max.
func (r *File) open() error {
	if fi, err := os.Stat(r.path); err == nil && r.max > 0 && fi.Size() > r.max {
		_ = os.Rename(r.path, r.path+".1") // best effort: a lost rotation only means a longer file
	}
	f, err := os.OpenFile(r.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if r.f != nil {
		r.f.Close()
	}
	r.f, r.fi, r.size = f, fi, fi.Size()
	return nil
}

// Write appends p as one write.
func (r *File) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, os.ErrClosed
	}
	fi, err := os.Stat(r.path)
	switch {
	case err != nil || !os.SameFile(fi, r.fi):
		err = r.open() // rotated or removed by another process
	case r.max > 0 && r.size+int64(len(p)) > r.max:
		_ = os.Rename(r.path, r.path+".1")
		err = r.open()
	}
	if err != nil {
		return 0, err
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

// Close closes the file.
func (r *File) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
