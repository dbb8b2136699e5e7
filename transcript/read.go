package transcript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
)

// ReadExchanges reads the complete exchanges that start at or after
// fromOffset and returns them with the offset to resume from next time.
//
// An exchange is complete, and reported, when its prompt was followed by
// assistant text and then either
//   - the next prompt line, or
//   - the end of the file, right after a line break, with the turn's last
//     assistant block being text (not a tool call waiting for its result).
//
// Anything else stays unread: next is the start of the first prompt whose
// exchange is not complete yet (or of a torn last line: bytes without a
// final line break, or a last line that is not valid JSON, which is how a
// write in progress looks). A later call from next reads it again whole, so
// every exchange is reported exactly once across calls. A prompt that got
// no assistant text before the next prompt (an interrupted turn) is
// dropped. Sidechain, meta, summary, system and unknown lines, command
// output and lines over MaxLineBytes are skipped.
//
// fromOffset must be 0 or an offset returned by an earlier call; if the file
// no longer fits it, ReadExchanges returns ErrOffset. To number repeated
// prompts (see KeyForOccurrence) it counts the prompts before fromOffset
// first, a fast pass that decodes only prompt-like lines. On a read error
// the exchanges and offset returned so far are still valid.
func ReadExchanges(r io.ReaderAt, fromOffset int64) (exchanges []Exchange, next int64, err error) {
	return readExchanges(r, fromOffset, 0)
}

// readExchanges is ReadExchanges reading at most maxBytes past fromOffset
// (no limit when maxBytes <= 0). Stopped there, it treats the data read as a
// file still being written: the turn in progress is read again next time,
// unless it began at fromOffset, which no later call could get past; then
// it is reported with what it has so far (or, with no reply yet, dropped).
func readExchanges(r io.ReaderAt, fromOffset, maxBytes int64) (exchanges []Exchange, next int64, err error) {
	if err := checkOffset(r, fromOffset); err != nil {
		return nil, fromOffset, err
	}
	counts := make(map[promptID]int)
	if fromOffset > 0 {
		err := scanPrompts(r, fromOffset, func(id promptID, _ PromptRef) { counts[id]++ })
		if err != nil {
			return nil, fromOffset, err
		}
	}
	a := assembler{counts: counts, next: fromOffset}
	lr := newLineReader(r, fromOffset, stopAt(fromOffset, maxBytes))
	for {
		line, start, end, st, err := lr.next()
		if err != nil {
			return a.out, a.next, err
		}
		switch st {
		case lineEOF, lineTorn:
			switch {
			case lr.capped():
				a.cut(start, fromOffset)
			case st == lineEOF:
				a.finish(end, true)
			default:
				a.finish(start, false)
			}
			return a.out, a.next, nil
		case lineTooLong:
			a.skip(end)
			continue
		}
		l, perr := ParseLine(line)
		if perr != nil {
			if lr.atEOF() && !lr.capped() {
				a.finish(start, false) // a broken last line may be a write in progress
				return a.out, a.next, nil
			}
			a.skip(end)
			continue
		}
		a.add(l, start, end)
	}
}

// ReadFileResuming reads the transcript at path from a stored offset, as
// ReadFile does, but at most MaxReadBytes past it: the rest waits for the
// next call, from next. The transcript is read again from the start when
// the offset no longer fits the file (it was rewritten), which reread
// reports; exchange keys make the second reading safe to store. The agent
// and the SessionEnd and PreCompact hooks read this way.
func ReadFileResuming(ctx context.Context, path string, fromOffset int64) (exchanges []Exchange, next int64, reread bool, err error) {
	exchanges, next, err = readFile(ctx, path, fromOffset, maxRead)
	if errors.Is(err, ErrOffset) {
		exchanges, next, err = readFile(ctx, path, 0, maxRead)
		return exchanges, next, true, err
	}
	return exchanges, next, false, err
}

// ReadFile is ReadExchanges on the transcript at path, opened with Open: a
// file that is not regular is refused, only what it held when opened is
// read, and the read fails with ctx's error once ctx is done.
func ReadFile(ctx context.Context, path string, fromOffset int64) (exchanges []Exchange, next int64, err error) {
	return readFile(ctx, path, fromOffset, 0)
}

func readFile(ctx context.Context, path string, fromOffset, maxBytes int64) (exchanges []Exchange, next int64, err error) {
	f, err := Open(ctx, path)
	if err != nil {
		return nil, fromOffset, err
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close transcript: %w", cerr)
		}
	}()
	exchanges, next, err = readExchanges(f, fromOffset, maxBytes)
	if err != nil {
		return exchanges, next, fmt.Errorf("read transcript %s: %w", path, err)
	}
	return exchanges, next, nil
}

// CountPrompts returns how many prompts in the transcript belong to
// sessionID and have the same normalised text as prompt, by the rule
// PromptText states. The Stop hook uses it as the occurrence for
// KeyForOccurrence.
func CountPrompts(r io.ReaderAt, sessionID, prompt string) (int, error) {
	want := promptIDOf(sessionID, prompt)
	n := 0
	err := scanPrompts(r, math.MaxInt64, func(id promptID, _ PromptRef) {
		if id == want {
			n++
		}
	})
	return n, err
}

// PromptRef is one prompt line: what the Stop hook needs to compute the
// key of the turn that just ended.
type PromptRef struct {
	SessionID string
	Text      string
	UUID      string
	// Occurrence counts prompts with the same normalised text in the
	// session up to and including this one.
	Occurrence int
	// Offset is where the prompt line starts.
	Offset int64
}

// Key returns KeyForOccurrence(p.SessionID, p.Text, p.Occurrence), the key
// of the exchange this prompt starts.
func (p PromptRef) Key() string { return KeyForOccurrence(p.SessionID, p.Text, p.Occurrence) }

// LastPrompt returns the last prompt on a complete line of the transcript,
// with its occurrence, and false when there is none. The Stop hook, whose
// input has no prompt, can key the turn it is storing with it; the
// prompt line is written when the person submits it, long before Stop.
func LastPrompt(r io.ReaderAt) (PromptRef, bool, error) {
	var s PromptScanner
	return s.Scan(r)
}

// PromptScanner finds the last prompt of a transcript that only grows, as
// LastPrompt does, but each Scan reads only the lines appended since the
// previous one: a long-lived process (the agent serving the Stop hook)
// keeps one per transcript so a turn's cost does not grow with the
// session. A file that was rewritten needs a new scanner.
type PromptScanner struct {
	counts map[promptID]int
	last   PromptRef
	found  bool
	next   int64 // where the first line not yet scanned starts
}

// Scan reads the complete lines from the previous scan's end, at most
// MaxReadBytes of them, and returns the last prompt so far, with its
// occurrence, and false when there is none. Stopped by the cap with more
// to read, it returns ErrReadCap with what it found; the next Scan goes on.
func (s *PromptScanner) Scan(r io.ReaderAt) (PromptRef, bool, error) {
	if s.counts == nil {
		s.counts = make(map[promptID]int)
	}
	next, capped, err := scanPromptsFrom(r, s.next, stopAt(s.next, maxRead), func(id promptID, p PromptRef) {
		s.counts[id]++
		p.Occurrence = s.counts[id]
		s.last, s.found = p, true
	})
	s.next = next
	if err == nil && capped {
		err = fmt.Errorf("%w after %d bytes", ErrReadCap, maxRead)
	}
	return s.last, s.found, err
}

// Offset returns where the next Scan starts: the end of the last complete
// line scanned.
func (s *PromptScanner) Offset() int64 { return s.next }

// scanPrompts calls fn for every prompt on a complete line that ends by
// stop (math.MaxInt64 for the whole file); the PromptRef has no
// Occurrence. Only lines that can be prompts are decoded: a prompt line
// contains the JSON token "user" and no "tool_result", and inside JSON
// strings quotes are escaped, so text in a message cannot fake either
// token.
func scanPrompts(r io.ReaderAt, stop int64, fn func(promptID, PromptRef)) error {
	_, _, err := scanPromptsFrom(r, 0, stop, fn)
	return err
}

// scanPromptsFrom is scanPrompts from the line starting at from; it returns
// where the first line it did not scan starts, and whether it stopped at
// stop with more data after it.
func scanPromptsFrom(r io.ReaderAt, from, stop int64, fn func(promptID, PromptRef)) (next int64, capped bool, err error) {
	lr := newLineReader(r, from, stop)
	next = from
	for {
		line, start, end, st, err := lr.next()
		if err != nil {
			return next, false, err
		}
		if st == lineEOF || st == lineTorn {
			return next, lr.capped(), nil
		}
		next = end
		if st != lineOK || !bytes.Contains(line, tokenUser) || bytes.Contains(line, tokenToolResult) {
			continue
		}
		l, err := ParseLine(line)
		if err != nil {
			continue
		}
		if text, ok := PromptText(l); ok {
			fn(promptIDOf(l.SessionID, text), PromptRef{SessionID: l.SessionID, Text: text, UUID: l.UUID, Offset: start})
		}
	}
}

var (
	tokenUser       = []byte(`"user"`)
	tokenToolResult = []byte(`"tool_result"`)
)

// assembler groups lines into exchanges.
type assembler struct {
	counts map[promptID]int
	cur    *builder
	out    []Exchange
	// next is the offset up to which every line is final: reported or
	// skipped for good.
	next int64
}

// add takes one parsed line spanning [start, end).
func (a *assembler) add(l Line, start, end int64) {
	switch text, isPrompt := PromptText(l); {
	case isPrompt:
		a.closeTurn(start)
		id := promptIDOf(l.SessionID, text)
		a.counts[id]++
		a.cur = newBuilder(l, text, start, a.counts[id])
		a.next = start
	case a.cur != nil && isReply(l):
		a.cur.addAssistant(l)
	case a.cur != nil && isToolResults(l):
		a.cur.addResults(l)
	}
	if a.cur == nil {
		a.next = end
	}
}

// skip passes over a line that cannot be used, spanning up to end.
func (a *assembler) skip(end int64) {
	if a.cur == nil {
		a.next = end
	}
}

// closeTurn ends the current exchange at a new prompt starting at start.
func (a *assembler) closeTurn(start int64) {
	if a.cur != nil && a.cur.hasReply() {
		a.out = append(a.out, a.cur.finish(start))
	}
	a.cur = nil
}

// cut handles a read stopped by its size cap at end, the start of the
// first line not read (see readExchanges).
func (a *assembler) cut(end, from int64) {
	switch {
	case a.cur == nil:
		a.next = end
	case a.cur.ex.StartOffset > from:
		a.next = a.cur.ex.StartOffset
	default:
		if a.cur.hasReply() {
			a.out = append(a.out, a.cur.finish(end))
		}
		a.next = end
	}
}

// finish handles the end of the readable data at end; clean is set when it
// is the true end of the file after a line break.
func (a *assembler) finish(end int64, clean bool) {
	switch {
	case a.cur == nil:
		a.next = end
	case clean && a.cur.completeAtEOF():
		a.out = append(a.out, a.cur.finish(end))
		a.next = end
	default:
		a.next = a.cur.ex.StartOffset
	}
}
