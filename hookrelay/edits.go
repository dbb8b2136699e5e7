package hookrelay

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// EventPostToolUse is the event credence-hook records the model's edits to
// memory files at (PostToolUse, matcher Write|Edit|MultiEdit|Bash). It is
// handled by the front itself: one append to a small file, no database,
// no agent (docs/HOOKS.md, "Who edited a memory file").
const EventPostToolUse = "PostToolUse"

// EditLogName is the file, in the data directory, that holds one line per
// memory file the model wrote, edited or deleted.
const EditLogName = "memory-edits.log"

// EditLogPath returns the edit log of a data directory.
func EditLogPath(dataDir string) string { return filepath.Join(dataDir, EditLogName) }

// editLogMax is the size past which the log is moved to <log>.1 (replacing
// the one before) and started again: the watcher needs only the last
// minutes.
const editLogMax = 256 << 10

// maxHashedBytes bounds how much of an edited file the hook reads to hash
// it; a memory file is a few hundred bytes.
const maxHashedBytes = 4 << 20

// Gone is the hash recorded for a file the tool left missing (a Bash
// command that removed or moved it).
const Gone = "gone"

// EditRecord is one line of the edit log.
type EditRecord struct {
	Time time.Time
	Tool string
	Hash string // ContentHash of the file right after the tool ran, or Gone
	Path string // absolute and clean
}

// ContentHash is the hash the edit log records: FNV-1a 64 in hex. It only
// has to tell one version of a small file from another, and the front must
// not link crypto.
func ContentHash(b []byte) string {
	h := fnv.New64a()
	h.Write(b)
	return strconv.FormatUint(h.Sum64(), 16)
}

// RecordEdit appends to the edit log of dataDir the memory files a
// PostToolUse event's tool changed: for Write, Edit and MultiEdit the
// tool_input.file_path, with the hash of what the file holds now; for Bash
// every *.md path its command names that no longer exists (the model
// deleting a memory with rm or mv). Only *.md files are recorded. It reads
// the input without encoding/json, which the front must not link.
func RecordEdit(dataDir string, input []byte, now time.Time) error {
	f, err := scanToolInput(input)
	if err != nil {
		return fmt.Errorf("read PostToolUse input: %w", err)
	}
	var recs []EditRecord
	switch f.tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		p := absPath(f.filePath, f.cwd)
		if !isMarkdown(p) {
			return nil
		}
		recs = append(recs, EditRecord{Time: now, Tool: f.tool, Hash: hashFile(p), Path: p})
	case "Bash":
		for _, tok := range shellWords(f.command) {
			p := absPath(expandHome(tok), f.cwd)
			if !isMarkdown(p) {
				continue
			}
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				recs = append(recs, EditRecord{Time: now, Tool: f.tool, Hash: Gone, Path: p})
			}
		}
	}
	if len(recs) == 0 {
		return nil
	}
	var b strings.Builder
	for _, r := range recs {
		if strings.ContainsAny(r.Path, "\t\n\r") {
			continue
		}
		fmt.Fprintf(&b, "%d\t%s\t%s\t%s\n", r.Time.UnixNano(), r.Tool, r.Hash, r.Path)
	}
	return appendLog(EditLogPath(dataDir), b.String())
}

// appendLog appends text to the log in one write (O_APPEND: lines of
// concurrent hooks do not interleave), moving a full log aside first.
func appendLog(path, text string) error {
	if text == "" {
		return nil
	}
	if info, err := os.Stat(path); err == nil && info.Size() > editLogMax {
		_ = os.Rename(path, path+".1") // another hook may have moved it first
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.WriteString(text)
	cerr := f.Close()
	return errors.Join(werr, cerr)
}

// ReadEditLog returns the records of the edit log of dataDir (and of the
// log it moved aside) newer than since, oldest first. A missing log is no
// records; a line it cannot read is skipped.
func ReadEditLog(dataDir string, since time.Time) ([]EditRecord, error) {
	var out []EditRecord
	for _, p := range []string{EditLogPath(dataDir) + ".1", EditLogPath(dataDir)} {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, err
		}
		for line := range strings.SplitSeq(string(b), "\n") {
			parts := strings.SplitN(line, "\t", 4)
			if len(parts) != 4 {
				continue
			}
			ns, err := strconv.ParseInt(parts[0], 10, 64)
			if err != nil {
				continue
			}
			r := EditRecord{Time: time.Unix(0, ns), Tool: parts[1], Hash: parts[2], Path: parts[3]}
			if r.Time.After(since) {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// EditLogExists reports whether the hook has ever recorded an edit in
// dataDir: only then is it worth waiting for its record of a change.
func EditLogExists(dataDir string) bool {
	_, err := os.Stat(EditLogPath(dataDir))
	return err == nil
}

func isMarkdown(p string) bool {
	return p != "" && strings.EqualFold(filepath.Ext(p), ".md")
}

func absPath(p, cwd string) string {
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		if cwd == "" || !filepath.IsAbs(cwd) {
			return ""
		}
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}

// hashFile hashes what the file holds now, Gone when it does not exist.
func hashFile(p string) string {
	f, err := os.Open(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Gone
		}
		return "unreadable"
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHashedBytes))
	if err != nil {
		return "unreadable"
	}
	return ContentHash(b)
}

// shellWords splits a command line into words the way a shell would for
// plain arguments: white space and ;&|()<> separate, single and double
// quotes group, a backslash escapes. Enough to find the paths rm and mv
// are given; no expansion besides a leading ~/ (done by the caller).
func shellWords(cmd string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			out = append(out, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case c == '\'':
			inWord = true
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				cur.WriteString(cmd[i+1:])
				i = len(cmd)
				break
			}
			cur.WriteString(cmd[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(cmd) && cmd[i] != '"'; i++ {
				if cmd[i] == '\\' && i+1 < len(cmd) {
					i++
				}
				cur.WriteByte(cmd[i])
			}
		case c == '\\' && i+1 < len(cmd):
			inWord = true
			i++
			cur.WriteByte(cmd[i])
		case strings.IndexByte(" \t\n\r;&|()<>", c) >= 0:
			flush()
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// toolInput is what RecordEdit needs of a PostToolUse event.
type toolInput struct {
	tool, cwd, filePath, command string
}

// maxJSONDepth bounds nesting; deeper input is refused.
const maxJSONDepth = 64

// scanToolInput reads tool_name, cwd, tool_input.file_path and
// tool_input.command from a PostToolUse event's JSON.
func scanToolInput(data []byte) (toolInput, error) {
	s := &jsonScanner{data: data}
	var out toolInput
	s.onString = func(path []string, v string) {
		switch {
		case len(path) == 1 && path[0] == "tool_name":
			out.tool = v
		case len(path) == 1 && path[0] == "cwd":
			out.cwd = v
		case len(path) == 2 && path[0] == "tool_input" && path[1] == "file_path":
			out.filePath = v
		case len(path) == 2 && path[0] == "tool_input" && path[1] == "command":
			out.command = v
		}
	}
	s.skipSpace()
	if s.pos >= len(s.data) || s.data[s.pos] != '{' {
		return out, errors.New("not a JSON object")
	}
	if err := s.value(nil); err != nil {
		return out, err
	}
	s.skipSpace()
	if s.pos != len(s.data) {
		return out, fmt.Errorf("text after the JSON object at byte %d", s.pos)
	}
	return out, nil
}

// jsonScanner walks a JSON document and reports the string values found
// at each key path (object keys only; array elements keep their parent's
// path plus "[]").
type jsonScanner struct {
	data     []byte
	pos      int
	onString func(path []string, v string)
}

func (s *jsonScanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *jsonScanner) errf(format string, args ...any) error {
	return fmt.Errorf("invalid JSON at byte %d: %s", s.pos, fmt.Sprintf(format, args...))
}

func (s *jsonScanner) value(path []string) error {
	if len(path) > maxJSONDepth {
		return s.errf("nested deeper than %d", maxJSONDepth)
	}
	s.skipSpace()
	if s.pos >= len(s.data) {
		return s.errf("unexpected end")
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		s.pos++
		s.skipSpace()
		if s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			return nil
		}
		for {
			s.skipSpace()
			key, err := s.str()
			if err != nil {
				return err
			}
			s.skipSpace()
			if s.pos >= len(s.data) || s.data[s.pos] != ':' {
				return s.errf("expected ':'")
			}
			s.pos++
			if err := s.value(append(path[:len(path):len(path)], key)); err != nil {
				return err
			}
			s.skipSpace()
			if s.pos >= len(s.data) {
				return s.errf("unexpected end")
			}
			if s.data[s.pos] == '}' {
				s.pos++
				return nil
			}
			if s.data[s.pos] != ',' {
				return s.errf("expected ',' or '}'")
			}
			s.pos++
		}
	case c == '[':
		s.pos++
		s.skipSpace()
		if s.pos < len(s.data) && s.data[s.pos] == ']' {
			s.pos++
			return nil
		}
		for {
			if err := s.value(append(path[:len(path):len(path)], "[]")); err != nil {
				return err
			}
			s.skipSpace()
			if s.pos >= len(s.data) {
				return s.errf("unexpected end")
			}
			if s.data[s.pos] == ']' {
				s.pos++
				return nil
			}
			if s.data[s.pos] != ',' {
				return s.errf("expected ',' or ']'")
			}
			s.pos++
		}
	case c == '"':
		v, err := s.str()
		if err != nil {
			return err
		}
		if s.onString != nil {
			s.onString(path, v)
		}
		return nil
	default:
		start := s.pos
		for s.pos < len(s.data) && strings.IndexByte(" \t\n\r,]}", s.data[s.pos]) < 0 {
			s.pos++
		}
		switch lit := string(s.data[start:s.pos]); lit {
		case "true", "false", "null":
			return nil
		default:
			if _, err := strconv.ParseFloat(lit, 64); err != nil || lit == "" {
				s.pos = start
				return s.errf("unexpected %q", lit)
			}
			return nil
		}
	}
}

// str reads a JSON string at pos, decoding escapes; invalid UTF-8 and lone
// surrogates become U+FFFD.
func (s *jsonScanner) str() (string, error) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		return "", s.errf("expected a string")
	}
	s.pos++
	var b strings.Builder
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return b.String(), nil
		case c == '\\':
			if s.pos+1 >= len(s.data) {
				return "", s.errf("unexpected end in a string")
			}
			e := s.data[s.pos+1]
			s.pos += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, err := s.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if s.pos+1 < len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
						s.pos += 2
						if r2, err = s.hex4(); err != nil {
							return "", err
						}
					}
					r = utf16.DecodeRune(r, r2)
				}
				b.WriteRune(r)
			default:
				return "", s.errf("bad escape \\%c", e)
			}
		case c < 0x20:
			return "", s.errf("control character in a string")
		default:
			r, n := utf8.DecodeRune(s.data[s.pos:])
			b.WriteRune(r)
			s.pos += n
		}
	}
	return "", s.errf("unterminated string")
}

func (s *jsonScanner) hex4() (rune, error) {
	if s.pos+4 > len(s.data) {
		return 0, s.errf("short \\u escape")
	}
	n, err := strconv.ParseUint(string(s.data[s.pos:s.pos+4]), 16, 32)
	if err != nil {
		return 0, s.errf("bad \\u escape")
	}
	s.pos += 4
	return rune(n), nil
}
