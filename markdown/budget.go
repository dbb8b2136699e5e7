package markdown

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/credence-mem/credence/internal/atomicfile"
)

// Claude Code loads only the start of MEMORY.md.
const (
	DefaultMaxLines = 200
	DefaultMaxBytes = 25 * 1024
)

// datedHeadingRe matches a level-2 heading that starts with a date:
// "## 2026-02-20" or "## 2026-02-20 — Switched to Bun".
var datedHeadingRe = lazyRegexp(`^## +([0-9]{4}-[0-9]{2}-[0-9]{2})(?:[ \t].*)?$`)

// sectionEndRe matches a heading that ends a "## " section: level 1 or 2.
var sectionEndRe = lazyRegexp(`^ {0,3}#{1,2}(?:[ \t]|$)`)

// datedSection is a dated "## " section outside the markers: lines
// [from, to) of the body.
type datedSection struct {
	date     string
	from, to int
}

// EnforceBudget keeps the file at path within what Claude Code loads
// (maxLines lines and maxBytes bytes; DefaultMaxLines and DefaultMaxBytes
// when zero). While the file is over either limit it moves the oldest dated
// "## YYYY-MM-DD…" section outside the markers (by its date; the earlier in
// the file on a tie) to the end of ArchivePath(path), and returns how many
// it moved. A section runs from its heading to the next level-1 or level-2
// heading, marker or end of file. The credence section, undated sections and
// text before the first heading are never moved, so the file can stay over
// budget when they alone exceed it. Under the same lock as WriteSection, the
// archive is appended first (atomically, with atomicfile), then the
// memory file is rewritten as WriteSection rewrites it; a crash in between
// leaves a section in both files, never in neither. The file, its lock and
// the archive must stay inside root as WriteSection's must (ErrOutsideRoot
// otherwise).
func EnforceBudget(ctx context.Context, path string, maxLines, maxBytes int, root Root) (int, error) {
	if maxLines <= 0 {
		maxLines = DefaultMaxLines
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	target, archive, err := confine(path, root)
	if err != nil {
		return 0, fmt.Errorf("enforce budget on %s: %w", path, err)
	}
	if _, err := os.Stat(target); errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	unlock, err := lockMemory(ctx, path, 0)
	if err != nil {
		return 0, err
	}
	defer unlock()

	var archived [][]byte // chunks appended by this call, in case we retry
	for attempt := 0; attempt < 20; attempt++ {
		current, mode, existed, err := readMemory(target)
		if err != nil || !existed {
			return 0, err
		}
		trimmed, chunks := trimToBudget(current, maxLines, maxBytes)
		if len(chunks) == 0 {
			return 0, nil
		}
		var fresh [][]byte
		for _, c := range chunks {
			if i := indexChunk(archived, c); i >= 0 {
				archived = append(archived[:i], archived[i+1:]...)
				continue
			}
			fresh = append(fresh, c)
		}
		if err := appendArchive(archive, fresh); err != nil {
			return 0, err
		}
		archived = append(archived, chunks...)
		err = replaceFile(target, current, true, trimmed, mode)
		if errors.Is(err, errConflict) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("write %s: %w", path, err)
		}
		return len(chunks), nil
	}
	return 0, fmt.Errorf("enforce budget on %s: %w", path, ErrContention)
}

func indexChunk(list [][]byte, c []byte) int {
	for i, x := range list {
		if bytes.Equal(x, c) {
			return i
		}
	}
	return -1
}

// trimToBudget removes the oldest dated sections until doc fits, returning
// the trimmed document and the removed sections, oldest first.
func trimToBudget(doc []byte, maxLines, maxBytes int) ([]byte, [][]byte) {
	var chunks [][]byte
	for countLines(doc) > maxLines || len(doc) > maxBytes {
		l := scan(doc)
		sections := l.datedSections()
		if len(sections) == 0 {
			break
		}
		oldest := sections[0]
		from, to := l.prefix+l.lines[oldest.from].start, l.prefix+l.lines[oldest.to-1].end
		chunk := append([]byte(nil), doc[from:to]...)
		if !bytes.HasSuffix(chunk, []byte("\n")) {
			chunk = append(chunk, '\n')
		}
		chunks = append(chunks, chunk)
		doc = append(append([]byte(nil), doc[:from]...), doc[to:]...)
	}
	return doc, chunks
}

// datedSections lists the dated sections outside the markers, oldest first.
func (l *layout) datedSections() []datedSection {
	inside := make([]bool, len(l.lines))
	pairs, _, _ := l.sectionPairs()
	for _, p := range pairs {
		for i := p[0]; i <= p[1]; i++ {
			inside[i] = true
		}
	}
	var out []datedSection
	for i := 0; i < len(l.lines); i++ {
		if inside[i] || l.literal[i] || l.markerLine[i] {
			continue
		}
		m := datedHeadingRe().FindStringSubmatch(l.lineText(i))
		if m == nil {
			continue
		}
		end := i + 1
		for end < len(l.lines) && !l.markerLine[end] && !inside[end] &&
			!(!l.literal[end] && sectionEndRe().MatchString(l.lineText(end))) {
			end++
		}
		out = append(out, datedSection{date: m[1], from: i, to: end})
		i = end - 1
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].date < out[b].date })
	return out
}

// countLines counts lines as Claude Code's 200-line cut sees them.
func countLines(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// appendArchive appends chunks to the archive atomically: the whole new
// archive goes to a temp file that replaces the old one, so a crash leaves
// either archive, never a torn one.
func appendArchive(path string, chunks [][]byte) error {
	if len(chunks) == 0 {
		return nil
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("read archive %s: %w", path, err)
	}
	var buf bytes.Buffer
	buf.Write(old)
	for _, c := range chunks {
		if buf.Len() > 0 && !bytes.HasSuffix(buf.Bytes(), []byte("\n\n")) {
			if !bytes.HasSuffix(buf.Bytes(), []byte("\n")) {
				buf.WriteByte('\n')
			}
			buf.WriteByte('\n')
		}
		buf.Write(c)
	}
	// An existing archive keeps its mode; a new one is 0600, as MEMORY.md.
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		return fmt.Errorf("write archive %s: %w", path, err)
	}
	return nil
}
