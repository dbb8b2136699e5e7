package install

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/credence-mem/credence/internal/atomicfile"
)

// EnsureImportLine makes sure the CLAUDE.md at claudeMDPath contains line
// (e.g. "@~/.claude-memory/MEMORY.md") on a line of its own, appending it
// when it is missing and creating the file when there is none. Running it
// again changes nothing.
func EnsureImportLine(claudeMDPath, line string) (changed bool, err error) {
	target, err := resolveSymlink(claudeMDPath)
	if err != nil {
		return false, err
	}
	data, exists, err := readIfExists(target)
	if err != nil {
		return false, err
	}
	if hasLine(data, line) {
		return false, nil
	}
	updated := bytes.Clone(data)
	if len(updated) > 0 && !bytes.HasSuffix(updated, []byte("\n")) {
		updated = append(updated, '\n')
	}
	updated = append(updated, line...)
	updated = append(updated, '\n')
	if !exists {
		if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return false, fmt.Errorf("create %s: %w", filepath.Dir(target), err)
		}
	}
	if err := atomicfile.WriteFile(target, updated, 0o600); err != nil {
		return false, fmt.Errorf("add import to %s: %w", claudeMDPath, err)
	}
	return true, nil
}

// RemoveImportLine removes every line of claudeMDPath equal to line (blanks
// around it ignored) and nothing else. A missing file is not an error.
func RemoveImportLine(claudeMDPath, line string) (changed bool, err error) {
	target, err := resolveSymlink(claudeMDPath)
	if err != nil {
		return false, err
	}
	data, exists, err := readIfExists(target)
	if err != nil || !exists || !hasLine(data, line) {
		return false, err
	}
	var kept []byte
	for l := range bytes.Lines(data) {
		if string(bytes.TrimSpace(l)) != line {
			kept = append(kept, l...)
		}
	}
	if err := atomicfile.WriteFile(target, kept, 0o600); err != nil {
		return false, fmt.Errorf("remove import from %s: %w", claudeMDPath, err)
	}
	return true, nil
}

// hasLine reports whether data has a line equal to line, blanks around it
// ignored.
func hasLine(data []byte, line string) bool {
	for l := range bytes.Lines(data) {
		if string(bytes.TrimSpace(l)) == line {
			return true
		}
	}
	return false
}
