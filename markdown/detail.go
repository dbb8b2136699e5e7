package markdown

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/credence-mem/credence/internal/atomicfile"
)

// Claude Code's memory types (frontmatter metadata.type of a memory file).
const (
	TypeUser      = "user"
	TypeFeedback  = "feedback"
	TypeProject   = "project"
	TypeReference = "reference"
)

// DetailPrefix starts the name of every detail file credence writes.
const DetailPrefix = "credence-"

// detailMarker is the frontmatter line that says credence wrote a file;
// credence rewrites or removes only files that carry it.
const detailMarker = "  source: credence"

// maxSlugRunes bounds the words of a detail file's name.
const maxSlugRunes = 48

// DetailName returns the detail file name of a belief: credence-, up to 48
// characters of its statement in lower-case ASCII words joined by dashes,
// and the last six characters of its ID, so two beliefs never share one.
func DetailName(id, statement string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(statement) {
		if b.Len() >= maxSlugRunes {
			break
		}
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
			continue
		}
		dash = true
	}
	slug := strings.Trim(b.String(), "-")
	suffix := strings.ToLower(id)
	if len(suffix) > 6 {
		suffix = suffix[len(suffix)-6:]
	}
	var clean strings.Builder
	for _, r := range suffix {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			clean.WriteRune(r)
		}
	}
	parts := []string{}
	for _, p := range []string{slug, clean.String()} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		parts = []string{"belief"}
	}
	return DetailPrefix + strings.Join(parts, "-") + ".md"
}

// validDetailName reports whether name is a detail file name the index
// line may link to.
func validDetailName(name string) bool {
	if !strings.HasPrefix(name, DetailPrefix) || !strings.HasSuffix(name, ".md") || len(name) > 100 {
		return false
	}
	for _, c := range []byte(strings.TrimSuffix(strings.TrimPrefix(name, DetailPrefix), ".md")) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Detail is what a promoted belief's detail file says.
type Detail struct {
	ID         string
	File       string // DetailName(ID, Statement)
	Statement  string
	Type       string // Claude Code's memory type, from the belief's kind and subject
	Guideline  bool
	Confidence float64
	Evidence   int
	Contested  bool
	// Sources counts the belief's evidence by where it came from
	// (conversations, your edits, Claude's memory files …).
	Sources map[string]int
	// Replaced is the statement of the belief this one took the place of.
	Replaced string
	Updated  time.Time
}

// RenderDetail returns a detail file: frontmatter (name, description,
// metadata.type, and credence's mark) and a body with the statement, its
// confidence and sources, how to apply it and what it replaced.
func RenderDetail(d Detail) []byte {
	statement := oneLine(d.Statement)
	name := statement
	if r := []rune(name); len(r) > 80 {
		name = strings.TrimSpace(string(r[:79])) + "…"
	}
	kind := "belief"
	if d.Guideline {
		kind = "guideline"
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	fmt.Fprintf(&b, "name: %s\n", yamlString(name))
	fmt.Fprintf(&b, "description: %s\n", yamlString(fmt.Sprintf("credence %s (confidence %.2f, %d pieces of evidence): %s",
		kind, clamp01(d.Confidence), max(d.Evidence, 0), statement)))
	b.WriteString("metadata:\n")
	fmt.Fprintf(&b, "  type: %s\n", d.Type)
	b.WriteString(detailMarker + "\n")
	fmt.Fprintf(&b, "  belief: %s\n", yamlString(d.ID))
	b.WriteString("---\n\n")
	b.WriteString(statement + "\n\n")
	contested := ""
	if d.Contested {
		contested = ", contested"
	}
	fmt.Fprintf(&b, "- Confidence: %.2f from %d pieces of evidence%s (updated %s).\n",
		clamp01(d.Confidence), max(d.Evidence, 0), contested, d.Updated.UTC().Format(time.DateOnly))
	if len(d.Sources) > 0 {
		keys := make([]string, 0, len(d.Sources))
		for k := range d.Sources {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if d.Sources[keys[i]] != d.Sources[keys[j]] {
				return d.Sources[keys[i]] > d.Sources[keys[j]]
			}
			return keys[i] < keys[j]
		})
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = strconv.Itoa(d.Sources[k]) + " " + k
		}
		fmt.Fprintf(&b, "- Sources: %s.\n", strings.Join(parts, ", "))
	}
	if d.Guideline {
		b.WriteString("- How to apply: follow it when the work it names comes up, unless the user says otherwise in the conversation.\n")
	} else {
		b.WriteString("- How to apply: take it as true unless the conversation says otherwise; if the user contradicts it, believe the user (credence will learn from it).\n")
	}
	if r := oneLine(d.Replaced); r != "" {
		fmt.Fprintf(&b, "- Replaced: %s (no longer true).\n", r)
	}
	fmt.Fprintf(&b, "\nWritten by credence from belief %s; it rewrites or removes this file as the belief changes. Edit the belief with `credence forget`, `credence pin` or `credence remember`, or delete its line in MEMORY.md.\n", d.ID)
	return b.Bytes()
}

// oneLine collapses white space and breaks comment delimiters, as a
// bullet's statement, without the escape of a leading block character.
func oneLine(s string) string {
	return unescapeStatement(SanitizeStatement(s))
}

// yamlString quotes s as a YAML double-quoted scalar.
func yamlString(s string) string {
	return strconv.Quote(s)
}

// OwnDetail reports whether content is a detail file credence wrote (its
// frontmatter carries credence's mark).
func OwnDetail(content []byte) bool {
	fm, _, ok := splitFrontmatter(content)
	if !ok {
		return false
	}
	for line := range strings.SplitSeq(fm, "\n") {
		if strings.TrimRight(line, " \r") == detailMarker {
			return true
		}
	}
	return false
}

// DetailStats counts what WriteDetails did.
type DetailStats struct {
	Written, Removed int
	// Kept lists files with a detail file's name that credence did not
	// write (no mark): never overwritten or removed.
	Kept []string
}

// WriteDetails makes dir's detail files exactly the given ones: each is
// written atomically (internal/atomicfile, mode 0600) when missing or
// different, and every other credence-*.md file that carries credence's
// mark is removed. A file with a detail name that credence did not write
// is left alone, and the detail that would have taken its name is skipped.
// Nothing is written through a link out of root.
func WriteDetails(dir string, root Root, details []Detail) (DetailStats, error) {
	var st DetailStats
	want := map[string]bool{}
	var errs []error
	for _, d := range details {
		if !validDetailName(d.File) {
			errs = append(errs, fmt.Errorf("detail file name %q is not one credence writes", d.File))
			continue
		}
		want[d.File] = true
		path := filepath.Join(dir, d.File)
		if err := CheckInRoot(path, root); err != nil {
			return st, err
		}
		data := RenderDetail(d)
		cur, err := os.ReadFile(path)
		switch {
		case err == nil && bytes.Equal(cur, data):
			continue
		case err == nil && !OwnDetail(cur):
			st.Kept = append(st.Kept, path)
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			errs = append(errs, err)
			continue
		}
		if err := atomicfile.WriteFile(path, data, 0o600); err != nil {
			errs = append(errs, fmt.Errorf("write detail file: %w", err))
			continue
		}
		st.Written++
	}
	n, err := removeDetails(dir, root, want)
	st.Removed = n
	return st, errors.Join(append(errs, err)...)
}

// RemoveDetails removes every detail file credence wrote in dir (uninstall).
func RemoveDetails(dir string, root Root) (int, error) {
	return removeDetails(dir, root, nil)
}

func removeDetails(dir string, root Root, keep map[string]bool) (int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if err := CheckWatchDir(dir, root); err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if keep[name] || !e.Type().IsRegular() || !validDetailName(name) {
			continue
		}
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil || !OwnDetail(b) {
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		n++
	}
	if n > 0 {
		errs = append(errs, atomicfile.SyncDir(dir))
	}
	return n, errors.Join(errs...)
}

// MemoryNote is one of Claude Code's memory files: its frontmatter fields
// and body.
type MemoryNote struct {
	Name, Description, Type string
	Body                    string
}

// ParseMemoryNote reads a memory file: YAML-style frontmatter between ---
// lines with name, description and metadata.type (or a top-level type, as
// earlier releases wrote), then the body. Values may be quoted. A file
// without frontmatter is all body. Only these fields are read; this is not
// a YAML parser.
func ParseMemoryNote(content []byte) MemoryNote {
	fm, body, ok := splitFrontmatter(content)
	if !ok {
		return MemoryNote{Body: strings.TrimSpace(string(content))}
	}
	var n MemoryNote
	inMetadata := false
	for line := range strings.SplitSeq(fm, "\n") {
		line = strings.TrimRight(line, " \r")
		indented := strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
		key, value, found := strings.Cut(strings.TrimSpace(line), ":")
		if !found {
			continue
		}
		key, value = strings.TrimSpace(key), unquoteYAML(strings.TrimSpace(value))
		if !indented {
			inMetadata = key == "metadata"
		}
		switch {
		case !indented && key == "name":
			n.Name = value
		case !indented && key == "description":
			n.Description = value
		case !indented && key == "type" && n.Type == "":
			n.Type = value
		case indented && inMetadata && key == "type":
			n.Type = value
		}
	}
	n.Type = strings.ToLower(n.Type)
	n.Body = strings.TrimSpace(body)
	return n
}

func unquoteYAML(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"') {
		if s, err := strconv.Unquote(v); err == nil {
			return s
		}
		return v[1 : len(v)-1]
	}
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}

// splitFrontmatter splits content into its frontmatter (without the ---
// lines) and the rest; ok is false when it does not start with one.
func splitFrontmatter(content []byte) (fm, body string, ok bool) {
	s := strings.TrimPrefix(string(content), "\uFEFF")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	rest, found := strings.CutPrefix(s, "---\n")
	if !found {
		return "", s, false
	}
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		return "", strings.TrimPrefix(strings.TrimPrefix(rest, "---"), "\n"), true
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return "", s, false
	}
	after := rest[end+4:]
	if after != "" && after[0] != '\n' {
		return "", s, false
	}
	return rest[:end], strings.TrimPrefix(after, "\n"), true
}

// IsClaudeMemoryFile reports whether name, in a memory directory, is one of
// Claude Code's memory files rather than the index, its archive, a detail
// file of credence's, a lock or a temp file.
func IsClaudeMemoryFile(name string) bool {
	if !strings.HasSuffix(name, ".md") || strings.HasPrefix(name, ".") {
		return false
	}
	switch name {
	case "MEMORY.md", "MEMORY.archive.md":
		return false
	}
	return !validDetailName(name)
}

// HasClaudeMemoryFiles reports whether dir holds a memory file of Claude
// Code's own with frontmatter: the sign that the Claude Code writing to it
// keeps one file per memory and reads MEMORY.md as their index.
func HasClaudeMemoryFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsClaudeMemoryFile(e.Name()) {
			continue
		}
		f, err := os.Open(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		head := make([]byte, 4)
		n, _ := f.Read(head)
		f.Close()
		if string(head[:n]) == "---\n" || string(head[:n]) == "---\r" {
			return true
		}
	}
	return false
}
