package markdown

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrOutsideRoot means a memory file, its lock, its temp files or its
// archive would be written through a symbolic link that leads out of the
// memory root: a repository that ships .claude/memory/MEMORY.md as a link
// to ~/.bashrc. Nothing is read or written there; the caller skips the
// file. The error is an *EscapeError that says which link.
var ErrOutsideRoot = errors.New("symbolic link leads out of the memory root")

// EscapeError reports a path that resolves outside its memory root.
type EscapeError struct {
	Path     string // the path credence was about to use
	Resolved string // where its symbolic links lead
	Root     string // the memory root, resolved
}

func (e *EscapeError) Error() string {
	return fmt.Sprintf("%s leads to %s, outside the memory root %s: a symbolic link leads out of it, so credence does not write there",
		e.Path, e.Resolved, e.Root)
}

// Is makes errors.Is(err, ErrOutsideRoot) hold.
func (e *EscapeError) Is(target error) bool { return target == ErrOutsideRoot }

// Root is the directory a memory file and everything written beside it
// (its lock, temp files, archive) must stay inside once symbolic links are
// followed. Links whose target stays inside are followed (MEMORY.md ->
// notes/MEMORY.md); links that lead out are refused with ErrOutsideRoot.
//
// Links in Trusted's own path are the user's layout and are followed
// before anything is checked: ~/.claude or a project checkout that lives
// elsewhere through a link, an autoMemoryDirectory that is a link into a
// dotfiles repository. Between Trusted and Dir no link may lead out, so for
// a repository target, Trusted is the repository root and Dir its
// .claude/memory: a repository cannot point .claude or memory elsewhere.
//
// The zero Root confines a file to its own directory, trusting that
// directory's path.
type Root struct {
	Dir     string
	Trusted string // Dir or an ancestor of it; empty means Dir
}

// resolved returns the real path of the root: Trusted with every link
// followed, then the rest of Dir as written. It is computed once per
// write; the checks compare real paths against it.
func (r Root) resolved(path string) (string, error) {
	dir := r.Dir
	if dir == "" {
		dir = filepath.Dir(path)
	}
	dir = filepath.Clean(dir)
	trusted := dir
	if r.Trusted != "" {
		trusted = filepath.Clean(r.Trusted)
	}
	rest, err := filepath.Rel(trusted, dir)
	if err != nil || rest == ".." || strings.HasPrefix(rest, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("memory root %s is not inside %s", dir, trusted)
	}
	real, err := resolvePath(trusted)
	if err != nil {
		return "", err
	}
	return filepath.Join(real, rest), nil
}

// check returns the real path of each of paths, or an *EscapeError for the
// first that leads out of the root. realRoot comes from resolved.
func checkInside(realRoot string, paths ...string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		real, err := resolvePath(p)
		if err != nil {
			return nil, err
		}
		if !inside(real, realRoot) {
			return nil, &EscapeError{Path: p, Resolved: real, Root: realRoot}
		}
		out[i] = real
	}
	return out, nil
}

// CheckInRoot reports whether path, and the lock and archive credence
// would write beside it, stay inside root once symbolic links are
// followed: nil, an error wrapping ErrOutsideRoot, or an error resolving
// them. Callers check a file before reading it, so a file a link leads to
// outside the root is not read either.
func CheckInRoot(path string, root Root) error {
	realRoot, err := root.resolved(path)
	if err != nil {
		return err
	}
	_, err = checkInside(realRoot, filepath.Dir(path), path, LockPath(path), ArchivePath(path))
	return err
}

// confine checks the paths WriteSection and EnforceBudget use and returns
// the real memory file to read and replace and the real archive beside it
// (the paths themselves, or where links inside the root lead).
func confine(path string, root Root) (file, archive string, err error) {
	realRoot, err := root.resolved(path)
	if err != nil {
		return "", "", err
	}
	real, err := checkInside(realRoot, filepath.Dir(path), path, LockPath(path))
	if err != nil {
		return "", "", err
	}
	// The archive lives beside the real file, and must stay inside too.
	arch, err := checkInside(realRoot, ArchivePath(real[1]))
	if err != nil {
		return "", "", err
	}
	return real[1], arch[0], nil
}

// CheckWatchDir reports whether watching dir (root.Dir, or one of its
// ancestors while it does not exist yet) stays where it should: a
// directory between Trusted and Dir must not be a link that leads out of
// its place under Trusted, or a watch would follow it (a repository's
// .claude linked to the home directory). Directories at or above Trusted
// are the user's layout and pass.
func CheckWatchDir(dir string, root Root) error {
	trusted := root.Trusted
	if trusted == "" {
		trusted = root.Dir
	}
	rel, err := filepath.Rel(filepath.Clean(trusted), filepath.Clean(dir))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	realTrusted, err := resolvePath(trusted)
	if err != nil {
		return err
	}
	_, err = checkInside(filepath.Join(realTrusted, rel), dir)
	return err
}

// maxLinks bounds the links resolvePath follows, as the kernel's ELOOP
// limit does.
const maxLinks = 40

// resolvePath returns the absolute path p names once every symbolic link
// in it is followed, like filepath.EvalSymlinks, except that the part that
// does not exist yet is kept as written (a file about to be created, a
// directory CreateDir will make) and a dangling link resolves to where it
// points: O_CREATE through it would create that file.
func resolvePath(p string) (string, error) {
	p, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", p, err)
	}
	vol := filepath.VolumeName(p)
	todo := strings.Split(p[len(vol):], string(filepath.Separator))
	cur := vol + string(filepath.Separator)
	links := 0
	missing := false // once a component is missing, the rest is lexical
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		if missing {
			cur = next
			continue
		}
		info, err := os.Lstat(next)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			missing = true
			cur = next
			continue
		case err != nil:
			return "", fmt.Errorf("resolve %s: %w", p, err)
		case info.Mode()&fs.ModeSymlink == 0:
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("resolve %s: too many symbolic links", p)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", p, err)
		}
		if filepath.IsAbs(target) {
			v := filepath.VolumeName(target)
			cur = v + string(filepath.Separator)
			target = target[len(v):]
		}
		todo = append(strings.Split(target, string(filepath.Separator)), todo...)
	}
	return cur, nil
}

// inside reports whether path is dir or below it; both are clean and
// absolute.
func inside(path, dir string) bool {
	if path == dir {
		return true
	}
	if !strings.HasSuffix(dir, string(filepath.Separator)) {
		dir += string(filepath.Separator)
	}
	return strings.HasPrefix(path, dir)
}
