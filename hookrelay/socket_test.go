package hookrelay

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSocketPath(t *testing.T) {
	if got := SocketPath("/home/u/.local/share/credence"); got != "/home/u/.local/share/credence/agent.sock" {
		t.Errorf("short data directory: %s", got)
	}
	long := "/home/u/" + strings.Repeat("deep/", 30) + "credence"
	a, b := SocketPath(long), SocketPath(long+"2")
	if len(a) > maxSocketPath || !strings.HasPrefix(a, "/tmp/credence-") || a == b {
		t.Errorf("long data directories: %s and %s; want distinct short paths under /tmp", a, b)
	}
}

func TestCheckSocket(t *testing.T) {
	dir := t.TempDir()
	private := filepath.Join(dir, "private")
	shared := filepath.Join(dir, "shared")
	os.Mkdir(private, 0o700)
	os.Mkdir(shared, 0o700)
	os.Chmod(shared, 0o777)
	listen := func(path string) {
		ln, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
	}
	listen(filepath.Join(private, "agent.sock"))
	listen(filepath.Join(shared, "agent.sock"))
	os.WriteFile(filepath.Join(private, "plain.sock"), nil, 0o600)
	os.Symlink(private, filepath.Join(dir, "link"))
	tests := []struct {
		name, path string
		ok         bool
	}{
		{"a socket in a private directory", filepath.Join(private, "agent.sock"), true},
		{"a socket in a world-writable directory", filepath.Join(shared, "agent.sock"), false},
		{"a regular file", filepath.Join(private, "plain.sock"), false},
		{"a directory reached through a symlink", filepath.Join(dir, "link", "agent.sock"), false},
		{"nothing", filepath.Join(private, "none.sock"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := checkSocket(tc.path); (err == nil) != tc.ok {
				t.Errorf("checkSocket(%s)=%v, want ok=%v", tc.path, err, tc.ok)
			}
		})
	}
}
