package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/credence-mem/credence/internal/atomicfile"
)

// backupSuffix starts the name of every backup credence writes beside a
// file it edits: settings.json.credence-backup-20250102T150405Z.
const backupSuffix = ".credence-backup-"

// ErrConcurrentEdit reports a file that kept changing while credence edited
// it (Claude Code rewrites ~/.claude.json often); running again fixes it.
var ErrConcurrentEdit = errors.New("file changed while credence was editing it; run the command again")

// now is the clock backups are named by; tests replace it.
var now = time.Now

// editJSONFile applies edit to the JSON object in path and writes the
// result back atomically when edit reports a change. A missing file starts
// as {} and is created with mode 0600 (its directory 0700); a malformed file
// is left untouched and reported with its path. Before changing an existing
// file it copies it to a timestamped backup, whose path it returns.
func editJSONFile(path string, edit func(doc *object) (changed bool, err error)) (changed bool, backupPath string, err error) {
	target, err := resolveSymlink(path)
	if err != nil {
		return false, "", err
	}
	// Claude Code writes some of these files without a lock. Compare the
	// file just before replacing it with what was edited, and start over if
	// it moved underneath us.
	for range 3 {
		original, exists, err := readIfExists(target)
		if err != nil {
			return false, "", err
		}
		text := original
		if len(bytes.TrimSpace(text)) == 0 {
			text = []byte("{}")
		}
		doc, err := parseObject(text)
		if err != nil {
			return false, "", fmt.Errorf("%s is not valid JSON (%v); fix or move it and run again, it was left untouched", path, err)
		}
		modified, err := edit(doc)
		if err != nil {
			return false, "", fmt.Errorf("%s: %w; it was left untouched", path, err)
		}
		if !modified {
			return false, "", nil
		}
		updated := render(doc.marshal(), original)

		current, _, err := readIfExists(target)
		if err != nil {
			return false, "", err
		}
		if !bytes.Equal(current, original) {
			continue
		}
		if exists {
			if backupPath, err = writeBackup(path, original); err != nil {
				return false, "", err
			}
		} else if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
			return false, "", fmt.Errorf("create %s: %w", filepath.Dir(target), err)
		}
		if err := atomicfile.WriteFile(target, updated, 0o600); err != nil {
			return false, "", fmt.Errorf("write %s: %w", path, err)
		}
		return true, backupPath, nil
	}
	return false, "", fmt.Errorf("edit %s: %w", path, ErrConcurrentEdit)
}

// resolveSymlink returns the file a symlink points to, so an atomic rename
// replaces the file a dotfiles manager linked rather than the link itself.
func resolveSymlink(path string) (string, error) {
	target, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", path, err)
	}
	return target, nil
}

// readIfExists returns a file's bytes and whether it exists.
func readIfExists(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return data, true, nil
}

// writeBackup copies data to a new file beside path named with the time,
// mode 0600 (the original may hold tokens), never overwriting an older
// backup.
func writeBackup(path string, data []byte) (string, error) {
	stamp := now().UTC().Format("20060102T150405Z")
	base := path + backupSuffix + stamp
	name := base
	for i := 2; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			name = fmt.Sprintf("%s-%d", base, i)
			continue
		}
		if err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
		_, werr := f.Write(data)
		if werr == nil {
			werr = f.Sync()
		}
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(name)
			return "", fmt.Errorf("back up %s: %w", path, werr)
		}
		return name, nil
	}
}
