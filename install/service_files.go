package install

import (
	"encoding/xml"
	"path/filepath"
	"strings"
)

// Names under which the agent is registered with the service managers.
const (
	SystemdUnitName = "credence-agent.service"
	LaunchdLabel    = "com.github.credence-mem.credence.agent"
)

// SystemdUnitPath is where a user unit lives: $XDG_CONFIG_HOME/systemd/user,
// or ~/.config/systemd/user when xdgConfigHome is empty.
func SystemdUnitPath(home, xdgConfigHome string) string {
	if xdgConfigHome == "" || !filepath.IsAbs(xdgConfigHome) {
		xdgConfigHome = filepath.Join(home, ".config")
	}
	return filepath.Join(xdgConfigHome, "systemd", "user", SystemdUnitName)
}

// LaunchdPlistPath is where a per-user launch agent lives.
func LaunchdPlistPath(home string) string {
	return filepath.Join(home, "Library", "LaunchAgents", LaunchdLabel+".plist")
}

// SystemdUnit returns a systemd --user unit that runs `<binary> agent`,
// restarts it when it fails and starts it at login. The agent reads its
// configuration itself; the unit sets no CREDENCE_* variables because they
// would silently override the config file. dataDir is the working directory
// ("-" lets the unit start even before the directory exists).
func SystemdUnit(binary, dataDir string) string {
	var b strings.Builder
	b.WriteString("# Written by `credence install`; `credence uninstall` removes it.\n")
	b.WriteString("[Unit]\n")
	b.WriteString("Description=credence memory agent for Claude Code\n")
	b.WriteString("Documentation=https://github.com/credence-mem/credence\n\n")
	b.WriteString("[Service]\n")
	b.WriteString("Type=simple\n")
	b.WriteString("ExecStart=" + systemdQuote(binary) + " agent\n")
	b.WriteString("WorkingDirectory=-" + systemdEscape(dataDir) + "\n")
	b.WriteString("Restart=on-failure\n")
	b.WriteString("RestartSec=5s\n")
	// The agent checkpoints a consolidation cycle on SIGTERM; give it time.
	b.WriteString("TimeoutStopSec=30s\n")
	b.WriteString("UMask=0077\n\n")
	b.WriteString("[Install]\n")
	b.WriteString("WantedBy=default.target\n")
	return b.String()
}

// systemdEscape doubles the characters systemd expands in unit values:
// % (specifiers) and $ (environment variables).
func systemdEscape(s string) string {
	s = strings.ReplaceAll(s, "%", "%%")
	return strings.ReplaceAll(s, "$", "$$")
}

// systemdQuote writes one ExecStart word, double-quoted when it holds
// blanks or quotes.
func systemdQuote(s string) string {
	s = systemdEscape(s)
	if !strings.ContainsAny(s, " \t\"'\\;") {
		return s
	}
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return `"` + s + `"`
}

// LaunchdPlist returns a launch agent that runs `<binary> agent` at login,
// restarts it unless it exited cleanly, and appends its output to
// <dataDir>/logs/agent.out.log.
func LaunchdPlist(binary, dataDir string) string {
	logPath := filepath.Join(dataDir, "logs", "agent.out.log")
	var b strings.Builder
	b.WriteString(xml.Header)
	b.WriteString(`<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">` + "\n")
	b.WriteString("<!-- Written by `credence install`; `credence uninstall` removes it. -->\n")
	b.WriteString(`<plist version="1.0">` + "\n<dict>\n")
	plistString(&b, "Label", LaunchdLabel)
	b.WriteString("\t<key>ProgramArguments</key>\n\t<array>\n")
	b.WriteString("\t\t<string>" + xmlEscape(binary) + "</string>\n")
	b.WriteString("\t\t<string>agent</string>\n\t</array>\n")
	b.WriteString("\t<key>RunAtLoad</key>\n\t<true/>\n")
	b.WriteString("\t<key>KeepAlive</key>\n\t<dict>\n\t\t<key>SuccessfulExit</key>\n\t\t<false/>\n\t</dict>\n")
	b.WriteString("\t<key>ThrottleInterval</key>\n\t<integer>10</integer>\n")
	b.WriteString("\t<key>ExitTimeOut</key>\n\t<integer>30</integer>\n")
	plistString(&b, "ProcessType", "Background")
	plistString(&b, "WorkingDirectory", dataDir)
	plistString(&b, "StandardOutPath", logPath)
	plistString(&b, "StandardErrorPath", logPath)
	b.WriteString("\t<key>Umask</key>\n\t<integer>63</integer>\n") // 0077
	b.WriteString("</dict>\n</plist>\n")
	return b.String()
}

func plistString(b *strings.Builder, key, value string) {
	b.WriteString("\t<key>" + xmlEscape(key) + "</key>\n\t<string>" + xmlEscape(value) + "</string>\n")
}

func xmlEscape(s string) string {
	var b strings.Builder
	// EscapeText only fails when the writer does; a Builder never does.
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}
