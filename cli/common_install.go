package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/install"
	"github.com/credence-mem/credence/internal/atomicfile"
)

// hookBinaryName is the file name of the hook executable, installed next to
// the credence binary.
const hookBinaryName = "credence-hook"

// serviceRunner starts and stops the agent service; tests replace it with a
// recorder so nothing touches the real system.
var serviceRunner install.Runner = install.ExecRunner{}

// serviceOS is the operating system the service manager is chosen for;
// tests replace it.
var serviceOS = runtime.GOOS

// executable returns the path of the running credence binary with symlinks
// resolved; tests replace it.
var executable = func() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the credence binary: %w", err)
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	return p, nil
}

// binaries are the two executables an install registers.
type binaries struct {
	Credence string `json:"credence"`
	Hook     string `json:"hook"`
}

// findBinaries returns the running credence binary and the credence-hook
// beside it (or hookOverride when set), as absolute paths.
func findBinaries(hookOverride string) (binaries, error) {
	self, err := executable()
	if err != nil {
		return binaries{}, err
	}
	b := binaries{Credence: self, Hook: filepath.Join(filepath.Dir(self), hookBinaryName)}
	if hookOverride != "" {
		abs, err := filepath.Abs(hookOverride)
		if err != nil {
			return b, fmt.Errorf("hook binary %s: %w", hookOverride, err)
		}
		b.Hook = abs
	}
	return b, nil
}

// checkExecutable reports a missing or non-executable file.
func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not an executable file", path)
	}
	return nil
}

// installState is what `credence install` did, kept in the data directory
// so `credence uninstall` undoes exactly that and doctor knows what to
// check.
type installState struct {
	Binaries binaries               `json:"binaries"`
	Service  install.ServiceManager `json:"service,omitempty"`
	// Created lists the files install created rather than edited, so
	// uninstall can remove them again when nothing else was added since.
	Created []string `json:"created,omitempty"`
	// ConfigWritten is set when install wrote the default config file.
	ConfigWritten bool `json:"config_written,omitempty"`
	// Originals are the backups of files install first edited, with a
	// hash of what install left, so uninstall can put back the very bytes
	// when nobody changed the file since.
	Originals map[string]original `json:"originals,omitempty"`
}

// original is the backup of a file from before credence first edited it.
type original struct {
	Backup string `json:"backup"`
	After  string `json:"after_sha256"`
}

// fileHash returns the hex SHA-256 of a file's bytes, "" when unreadable.
func fileHash(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func installStatePath(cfg *config.Config) string {
	return filepath.Join(cfg.Paths.DataDir, "install.json")
}

// readInstallState returns the recorded install, or ok false when there is
// none.
func readInstallState(cfg *config.Config) (st installState, ok bool, err error) {
	data, err := os.ReadFile(installStatePath(cfg))
	if errors.Is(err, fs.ErrNotExist) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("read install state: %w", err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, false, fmt.Errorf("read install state %s: %w", installStatePath(cfg), err)
	}
	return st, true, nil
}

func writeInstallState(cfg *config.Config, st installState) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	path := installStatePath(cfg)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write install state: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write install state: %w", err)
	}
	return os.Chmod(path, 0o600)
}

// agentService describes the agent service for this configuration.
func agentService(env *Env, cfg *config.Config, bin binaries) install.Service {
	return install.Service{
		Binary:        bin.Credence,
		DataDir:       cfg.Paths.DataDir,
		Home:          cfg.Paths.Home,
		XDGConfigHome: env.getenv("XDG_CONFIG_HOME"),
		UID:           os.Getuid(),
	}
}

// fileExists reports whether path exists.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// isEmptyJSONObject reports whether the file holds only {} (and blanks).
func isEmptyJSONObject(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(data, &m) == nil && len(m) == 0
}

// isBlankFile reports whether the file holds only white space.
func isBlankFile(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && len(bytes.TrimSpace(data)) == 0
}
