package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const testCredence = "/home/u/.local/bin/credence"

func TestRegisterMCP(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	original := copyFixture(t, "claude.json", path)

	changed, backup, err := RegisterMCP(path, testCredence)
	if err != nil || !changed || backup == "" {
		t.Fatalf("RegisterMCP = %v, %q, %v; want changed with a backup", changed, backup, err)
	}
	doc := readJSON(t, path)
	servers := doc["mcpServers"].(map[string]any)
	if _, ok := servers["context7"]; !ok {
		t.Errorf("another user server was lost: %v", servers)
	}
	ours := servers[MCPServerName].(map[string]any)
	if ours["command"] != testCredence || ours["type"] != "stdio" || ours["args"].([]any)[0] != "mcp" {
		t.Errorf("credence server = %v", ours)
	}
	local := doc["projects"].(map[string]any)["/home/u/src/app"].(map[string]any)["mcpServers"].(map[string]any)
	if local["credence"].(map[string]any)["command"] != "/somewhere/else/credence" {
		t.Errorf("a project-scoped entry was changed: %v", local)
	}
	if doc["numStartups"] != 42.0 || doc["userID"] != "abc" {
		t.Errorf("other keys changed: %v", doc)
	}
	if ok, err := MCPRegistered(path, testCredence); err != nil || !ok {
		t.Errorf("MCPRegistered = %v, %v; want true", ok, err)
	}

	if changed, backup, err := RegisterMCP(path, testCredence); err != nil || changed || backup != "" {
		t.Errorf("second RegisterMCP = %v, %q, %v; want no change and no backup", changed, backup, err)
	}
	if changed, _, err := RegisterMCP(path, "/opt/new/credence"); err != nil || !changed {
		t.Errorf("RegisterMCP with a new binary = %v, %v; want changed", changed, err)
	}
	if ok, _ := MCPRegistered(path, testCredence); ok {
		t.Errorf("MCPRegistered for the old binary after re-registering = true")
	}

	changed, _, err = UnregisterMCP(path)
	if err != nil || !changed {
		t.Fatalf("UnregisterMCP = %v, %v; want changed", changed, err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(original) {
		t.Errorf("after unregistering:\n%s\nwant the original:\n%s", got, original)
	}
	if changed, _, err := UnregisterMCP(path); err != nil || changed {
		t.Errorf("second UnregisterMCP = %v, %v; want no change", changed, err)
	}
}

func TestRegisterMCPFileCases(t *testing.T) {
	tests := []struct {
		name    string
		content *string // nil: no file
		wantErr string
	}{
		{name: "missing file"},
		{name: "empty file", content: new("")},
		{name: "no mcpServers yet", content: new(`{"numStartups": 1}`)},
		{name: "malformed", content: new(`{"numStartups": `), wantErr: "not valid JSON"},
		{name: "mcpServers not an object", content: new(`{"mcpServers": []}`), wantErr: `"mcpServers"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".claude.json")
			if tt.content != nil {
				if err := os.WriteFile(path, []byte(*tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			changed, _, err := RegisterMCP(path, testCredence)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("RegisterMCP error = %v, want one naming %s and %q", err, path, tt.wantErr)
				}
				if data, _ := os.ReadFile(path); string(data) != *tt.content {
					t.Errorf("malformed file changed to %q", data)
				}
				return
			}
			if err != nil || !changed {
				t.Fatalf("RegisterMCP = %v, %v; want changed", changed, err)
			}
			if ok, err := MCPRegistered(path, testCredence); err != nil || !ok {
				t.Errorf("MCPRegistered = %v, %v; want true", ok, err)
			}
			if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
				t.Errorf("mode = %o, want 600", info.Mode().Perm())
			}
			if changed, _, err := UnregisterMCP(path); err != nil || !changed {
				t.Errorf("UnregisterMCP = %v, %v; want changed", changed, err)
			}
			if _, has := readJSON(t, path)["mcpServers"]; has {
				t.Errorf("an mcpServers object credence emptied was left behind")
			}
		})
	}
}

func TestUnregisterMCPMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	if changed, _, err := UnregisterMCP(path); err != nil || changed {
		t.Errorf("UnregisterMCP = %v, %v; want nothing", changed, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("UnregisterMCP created %s", path)
	}
}
