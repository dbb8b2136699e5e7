package transcript

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxReadBytes caps how far one ReadFileResuming call, or one
// PromptScanner.Scan, reads past where it starts. A session that wrote more
// than that since it was last read is taken in steps, each call resuming
// where the previous one stopped, so no read holds more than this in
// memory or runs long on a huge file.
const MaxReadBytes = 256 << 20

// maxRead is MaxReadBytes; tests lower it.
var maxRead int64 = MaxReadBytes

// ErrNotRegular is returned for a transcript path that names a FIFO, a
// device, a socket or a directory: reading one could block or never end
// (/dev/zero), and Claude Code never writes a transcript there.
var ErrNotRegular = errors.New("not a regular file")

// ErrReadCap is returned by PromptScanner.Scan when it stopped at
// MaxReadBytes with more of the file unread: the prompt it returns may not
// be the last one. The next Scan goes on from there.
var ErrReadCap = errors.New("transcript read stopped at the size cap")

// File is a transcript opened for bounded reading: it reads only the bytes
// the file held when it was opened, so a file that keeps growing cannot
// keep a reader busy, and every read fails once its context is done, so a
// caller that is told to stop does. It implements io.ReaderAt.
type File struct {
	f    *os.File
	ctx  context.Context
	info fs.FileInfo
}

// Open opens the transcript at path for reading under ctx. Anything but a
// regular file is refused with ErrNotRegular before it is opened, and again
// after (a path swapped in between), without blocking on a FIFO.
func Open(ctx context.Context, path string) (*File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("open transcript: %w", err)
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("open transcript %s: %w (%v)", path, ErrNotRegular, info.Mode().Type())
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return nil, fmt.Errorf("open transcript: %w", err)
	}
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%w (%v)", ErrNotRegular, info.Mode().Type())
		}
		return nil, fmt.Errorf("open transcript %s: %w", path, err)
	}
	return &File{f: f, ctx: ctx, info: info}, nil
}

// ReadAt reads like os.File.ReadAt within the size the file had when it
// was opened, and returns the context's error once it is done.
func (f *File) ReadAt(p []byte, off int64) (int, error) {
	if err := f.ctx.Err(); err != nil {
		return 0, err
	}
	size := f.info.Size()
	if off >= size {
		return 0, io.EOF
	}
	if rest := size - off; int64(len(p)) > rest {
		n, err := f.f.ReadAt(p[:rest], off)
		if err == nil {
			err = io.EOF
		}
		return n, err
	}
	return f.f.ReadAt(p, off)
}

// Stat returns what the file was when it was opened.
func (f *File) Stat() fs.FileInfo { return f.info }

// Close closes the file.
func (f *File) Close() error { return f.f.Close() }
