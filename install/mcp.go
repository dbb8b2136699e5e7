package install

import (
	"encoding/json"
	"fmt"
)

// MCPServerName is the name credence's MCP server is registered under.
const MCPServerName = "credence"

// Claude Code keeps user-scoped MCP servers (`claude mcp add --scope user`)
// in the top-level "mcpServers" object of ~/.claude.json, or of
// $CLAUDE_CONFIG_DIR/.claude.json when that is set; config.Paths.ClaudeJSON
// resolves it. settings.json's "mcpServers" is no longer read. Editing the
// file directly avoids depending on the claude CLI being on PATH.
type mcpServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// mcpEntry is the registration for `<credenceBinary> mcp` over stdio.
func mcpEntry(credenceBinary string) json.RawMessage {
	return encodeJSON(mcpServer{Type: "stdio", Command: credenceBinary, Args: []string{"mcp"}, Env: map[string]string{}})
}

// RegisterMCP registers `<credenceBinary> mcp` as the user-scoped MCP server
// "credence" in claudeJSONPath, keeping every other key of that file and
// every other server. An existing "credence" entry that differs (another
// binary path) is replaced. Same safety rules as MergeHooks: backup first,
// idempotent, malformed files left untouched, a missing file created 0600.
func RegisterMCP(claudeJSONPath, credenceBinary string) (changed bool, backupPath string, err error) {
	if err := checkAbsolute("credence binary", credenceBinary); err != nil {
		return false, "", err
	}
	want := mcpEntry(credenceBinary)
	return editJSONFile(claudeJSONPath, func(doc *object) (bool, error) {
		servers, err := doc.getObject("mcpServers")
		if err != nil {
			return false, err
		}
		if have, ok := servers.get(MCPServerName); ok && sameJSON(have, want) {
			return false, nil
		}
		servers.set(MCPServerName, want)
		doc.set("mcpServers", servers.marshal())
		return true, nil
	})
}

// UnregisterMCP removes the "credence" MCP server from claudeJSONPath and
// the "mcpServers" object when nothing else is left in it. A missing file or
// entry is not an error.
func UnregisterMCP(claudeJSONPath string) (changed bool, backupPath string, err error) {
	if _, exists, err := readIfExists(claudeJSONPath); err != nil || !exists {
		return false, "", err
	}
	return editJSONFile(claudeJSONPath, func(doc *object) (bool, error) {
		if _, ok := doc.get("mcpServers"); !ok {
			return false, nil
		}
		servers, err := doc.getObject("mcpServers")
		if err != nil {
			return false, err
		}
		if !servers.delete(MCPServerName) {
			return false, nil
		}
		if len(servers.members) == 0 {
			doc.delete("mcpServers")
		} else {
			doc.set("mcpServers", servers.marshal())
		}
		return true, nil
	})
}

// MCPRegistered reports whether claudeJSONPath registers credenceBinary as
// the "credence" MCP server, for doctor.
func MCPRegistered(claudeJSONPath, credenceBinary string) (bool, error) {
	data, exists, err := readIfExists(claudeJSONPath)
	if err != nil || !exists {
		return false, err
	}
	doc, err := parseObject(data)
	if err != nil {
		return false, fmt.Errorf("%s is not valid JSON: %w", claudeJSONPath, err)
	}
	servers, err := doc.getObject("mcpServers")
	if err != nil {
		return false, fmt.Errorf("%s: %w", claudeJSONPath, err)
	}
	have, ok := servers.get(MCPServerName)
	return ok && sameJSON(have, mcpEntry(credenceBinary)), nil
}
