//go:build linux

package markdown

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// helperOpEnv names the write a "fsize" helper makes.
const helperOpEnv = "CREDENCE_MARKDOWN_HELPER_OP"

func init() {
	platformHelpers["fsize"] = func() int {
		return runFileSizeLimited(os.Getenv(helperFileEnv), os.Getenv(helperOpEnv))
	}
}

// fullDiskBody is a person's notes, about 40 KB: more than a tiny disk has
// room for twice, and more than the helper's file size limit.
func fullDiskBody() string {
	var b strings.Builder
	for d := 1; b.Len() < 40<<10; d++ {
		b.WriteString(dated(fmt.Sprintf("2026-01-%02d", d%28+1), 40))
	}
	return b.String()
}

// failingWrite is the write each case makes fail: the section rewrite, or
// the line budget's archive append.
func failingWrite(op, path string) error {
	switch op {
	case "section":
		_, err := WriteSection(context.Background(), path, constant(secA), WriteOptions{})
		return err
	case "budget":
		_, err := EnforceBudget(context.Background(), path, 20, 0, Root{})
		return err
	}
	return fmt.Errorf("unknown op %q", op)
}

// TestFailedWriteLeavesNoTemp makes MEMORY.md writes fail after their temp
// file is created and checks that no temp file is left behind and the file
// is as it was (issue 16: a failed write left its temp file, filling a
// nearly full disk further). "file size limit" runs the write in a child
// process with RLIMIT_FSIZE below the file's size, so write(2) fails with
// EFBIG on every machine; "full disk" writes on a tmpfs too small for a
// second copy (ENOSPC), and is skipped where mounting one is not allowed.
func TestFailedWriteLeavesNoTemp(t *testing.T) {
	for _, op := range []string{"section", "budget"} {
		t.Run("file size limit/"+op, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, MemoryFileName)
			before := secB + fullDiskBody()
			writeFile(t, path, before, 0o600)
			cmd := exec.Command(testBinary(t), "-test.run=^$")
			cmd.Env = helperEnvironment("fsize", path, helperOpEnv+"="+op)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			checkUntouched(t, dir, path, before)
		})
		t.Run("full disk/"+op, func(t *testing.T) {
			dir := mountTinyDisk(t, "64k")
			path := filepath.Join(dir, MemoryFileName)
			before := secB + fullDiskBody()
			writeFile(t, path, before, 0o600)
			err := failingWrite(op, path)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("write on a full disk: %v, want ENOSPC", err)
			}
			checkUntouched(t, dir, path, before)
		})
	}
}

// runFileSizeLimited is the "fsize" helper: it lowers its file size limit
// below the file's size and makes the write, which must fail with EFBIG.
func runFileSizeLimited(path, op string) int {
	lim := unix.Rlimit{Cur: 16 << 10, Max: 16 << 10}
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		return 1
	}
	err := failingWrite(op, path)
	if !errors.Is(err, syscall.EFBIG) {
		fmt.Fprintf(os.Stderr, "write with a 16 KiB file size limit: %v, want EFBIG\n", err)
		return 1
	}
	return 0
}

// checkUntouched fails unless dir holds only the memory file, unchanged,
// and its lock.
func checkUntouched(t *testing.T, dir, path, want string) {
	t.Helper()
	assertOnlyFiles(t, dir, MemoryFileName, MemoryFileName+".lock")
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, []byte(want)) {
		t.Errorf("MEMORY.md changed by the failed write (%v)", err)
	}
}

// mountTinyDisk mounts a tmpfs of the given size on a temp directory, or
// skips the test where that is not allowed (it needs root or CAP_SYS_ADMIN).
func mountTinyDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a %s tmpfs here: %v", size, err)
	}
	t.Cleanup(func() {
		if err := unix.Unmount(dir, unix.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}
