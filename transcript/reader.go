package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
)

// MaxLineBytes caps one transcript line. A longer line (a huge tool result,
// a pasted image) is skipped without being held in memory.
const MaxLineBytes = 4 << 20

// readBufferSize is the read buffer; lines up to this size are parsed
// straight from it without a copy.
const readBufferSize = 64 << 10

// lineStatus says what lineReader.next found.
type lineStatus int

const (
	lineOK      lineStatus = iota // a complete line, ended by '\n'
	lineTooLong                   // a complete line over MaxLineBytes, skipped
	lineTorn                      // bytes after the last '\n': a write in progress
	lineEOF                       // nothing more
)

// lineReader reads lines from an io.ReaderAt, tracking byte offsets.
type lineReader struct {
	r    io.ReaderAt
	br   *bufio.Reader
	off  int64 // offset of the next unread byte
	stop int64 // the reader sees the data before stop as the whole file
	buf  []byte
	max  int
}

// newLineReader reads from the byte at from up to, not including, stop,
// as if the file ended there.
func newLineReader(r io.ReaderAt, from, stop int64) *lineReader {
	sr := io.NewSectionReader(r, from, stop-from)
	return &lineReader{r: r, br: bufio.NewReaderSize(sr, readBufferSize), off: from, stop: stop, max: MaxLineBytes}
}

// stopAt returns where a read from from that may go maxBytes further
// stops.
func stopAt(from, maxBytes int64) int64 {
	if maxBytes <= 0 || from > math.MaxInt64-maxBytes {
		return math.MaxInt64
	}
	return from + maxBytes
}

// capped reports, once next has reported the end, whether it was the
// reader's stop rather than the end of the data.
func (lr *lineReader) capped() bool {
	if lr.off < lr.stop || lr.stop == math.MaxInt64 {
		return false
	}
	var b [1]byte
	n, _ := lr.r.ReadAt(b[:], lr.stop)
	return n > 0
}

// next returns the next line without its line break (and without a '\r'
// before it), the offsets where the line starts and where the next one
// begins, and its status. The line is valid until the next call.
func (lr *lineReader) next() (line []byte, start, end int64, st lineStatus, err error) {
	start = lr.off
	lr.buf = lr.buf[:0]
	tooLong := false
	for {
		frag, rerr := lr.br.ReadSlice('\n')
		lr.off += int64(len(frag))
		switch {
		case rerr == nil:
			if tooLong || len(lr.buf)+len(frag)-1 > lr.max {
				return nil, start, lr.off, lineTooLong, nil
			}
			if len(lr.buf) > 0 {
				lr.buf = append(lr.buf, frag...)
				frag = lr.buf
			}
			frag = frag[:len(frag)-1]
			if n := len(frag); n > 0 && frag[n-1] == '\r' {
				frag = frag[:n-1]
			}
			return frag, start, lr.off, lineOK, nil
		case errors.Is(rerr, bufio.ErrBufferFull):
			if !tooLong && len(lr.buf)+len(frag) <= lr.max {
				lr.buf = append(lr.buf, frag...)
			} else {
				tooLong, lr.buf = true, lr.buf[:0]
			}
		case errors.Is(rerr, io.EOF):
			if lr.off == start {
				return nil, start, start, lineEOF, nil
			}
			return nil, start, lr.off, lineTorn, nil
		default:
			return nil, start, lr.off, lineEOF, fmt.Errorf("read transcript at byte %d: %w", lr.off, rerr)
		}
	}
}

// atEOF reports whether nothing follows the bytes read so far.
func (lr *lineReader) atEOF() bool {
	_, err := lr.br.Peek(1)
	return err != nil
}

// checkOffset verifies that from is 0 or just after a line break in r, so
// that reading resumes at the start of a line. A transcript that is now
// shorter than from, or has other bytes there, was rewritten.
func checkOffset(r io.ReaderAt, from int64) error {
	if from < 0 {
		return fmt.Errorf("%w: negative offset %d", ErrOffset, from)
	}
	if from == 0 {
		return nil
	}
	var b [1]byte
	n, err := r.ReadAt(b[:], from-1)
	if n == 0 {
		if err == nil || errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: offset %d is past the end", ErrOffset, from)
		}
		return fmt.Errorf("read transcript at byte %d: %w", from-1, err)
	}
	if b[0] != '\n' {
		return fmt.Errorf("%w: offset %d does not follow a line break", ErrOffset, from)
	}
	return nil
}

// ErrOffset is returned when a resume offset does not fit the transcript:
// the file was truncated or rewritten since the offset was stored. Reading
// again from 0 is safe, because exchange keys do not change.
var ErrOffset = errors.New("transcript offset does not fit the file")
