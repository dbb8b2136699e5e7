package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// helperEnv makes the test binary a helper that writes under a file size
// limit instead of running tests.
const helperEnv = "CREDENCE_ATOMICFILE_HELPER_FILE"

func TestMain(m *testing.M) {
	if path := os.Getenv(helperEnv); path != "" {
		os.Exit(writeUnderSizeLimit(path))
	}
	os.Exit(m.Run())
}

// big is more than the helper's file size limit and than the tiny disk
// has room for beside the file already there.
var big = bytes.Repeat([]byte("0123456789abcdef"), 40<<10/16)

// TestFailedWriteLeavesNoTemp makes the data write fail after the temp file
// was created, with EFBIG (a child process whose RLIMIT_FSIZE is below the
// data's size: works unprivileged, on every Linux) and with a real ENOSPC
// (a tmpfs too small for the data; skipped where mounting is not allowed).
// Either way the old file stays and no temp file is left.
func TestFailedWriteLeavesNoTemp(t *testing.T) {
	t.Run("file size limit", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "MEMORY.md")
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("helper: %v\n%s", err, out)
		}
		checkOnlyOld(t, dir, path)
	})
	t.Run("full disk", func(t *testing.T) {
		dir := t.TempDir()
		if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=32k,mode=0700"); err != nil {
			t.Skipf("cannot mount a tmpfs here: %v", err)
		}
		t.Cleanup(func() {
			if err := unix.Unmount(dir, unix.MNT_DETACH); err != nil {
				t.Errorf("unmount: %v", err)
			}
		})
		path := filepath.Join(dir, "MEMORY.md")
		if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, write := range []func() error{
			func() error { return WriteFile(path, big, 0o600) },
			func() error { _, err := WriteTemp(path, big, 0o600); return err },
		} {
			if err := write(); !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("write on a full disk: %v, want ENOSPC", err)
			}
			checkOnlyOld(t, dir, path)
		}
	})
}

// writeUnderSizeLimit is the helper: both writes must fail with EFBIG.
func writeUnderSizeLimit(path string) int {
	lim := unix.Rlimit{Cur: 16 << 10, Max: 16 << 10}
	if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &lim); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		return 1
	}
	if err := WriteFile(path, big, 0o600); !errors.Is(err, syscall.EFBIG) {
		fmt.Fprintf(os.Stderr, "WriteFile: %v, want EFBIG\n", err)
		return 1
	}
	if name, err := WriteTemp(path, big, 0o600); name != "" || !errors.Is(err, syscall.EFBIG) {
		fmt.Fprintf(os.Stderr, "WriteTemp: %q, %v; want \"\" and EFBIG\n", name, err)
		return 1
	}
	return 0
}

// checkOnlyOld fails unless dir holds only the file, with its old bytes.
func checkOnlyOld(t *testing.T, dir, path string) {
	t.Helper()
	if n := names(t, dir); !slices.Equal(n, []string{filepath.Base(path)}) {
		t.Errorf("directory holds %q after the failed write, want only %s", n, filepath.Base(path))
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != "old" {
		t.Errorf("file holds %q, %v after the failed write; want the old bytes", got, err)
	}
}
