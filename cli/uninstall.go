package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credence-mem/credence/internal/atomicfile"
	"github.com/gofrs/flock"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/install"
	"github.com/credence-mem/credence/markdown"
)

func init() {
	Register(Command{
		Name:    "uninstall",
		Usage:   "[--purge] [--json]",
		Summary: "undo credence install: stop the agent, remove the hooks, the MCP server and the CLAUDE.md import (--purge also deletes all memory)",
		Run:     runUninstall,
	})
}

func runUninstall(env *Env, args []string) int {
	fs := env.Flags("uninstall")
	purge := fs.Bool("purge", false, "also delete the data directory (database, logs): everything credence remembers")
	asJSON := fs.Bool("json", false, "print the steps as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	rep := &stepReport{env: env, quiet: *asJSON}
	doUninstall(env, rep, *purge)
	if *asJSON {
		if code := env.JSON(rep); code != 0 {
			return code
		}
	} else if !rep.failed() {
		if *purge {
			env.Printf("\ncredence is uninstalled and its memory deleted. Remove the binaries from your PATH to finish.\n")
		} else {
			env.Printf("\ncredence is uninstalled; its memory stays in the data directory (credence uninstall --purge deletes it).\n")
		}
	}
	if rep.failed() {
		return 1
	}
	return 0
}

// doUninstall reverses doInstall. Every step runs even when an earlier one
// fails, so one broken file does not leave the rest installed.
func doUninstall(env *Env, rep *stepReport, purge bool) {
	cfg, err := env.Config()
	var invalid *config.ValidationError
	if err != nil && !(errors.As(err, &invalid) && cfg != nil) {
		rep.add(step{Name: "configuration", Status: stepFailed, Detail: err.Error()})
		return
	}
	st, recorded, err := readInstallState(cfg)
	if err != nil {
		rep.add(step{Name: "read install state", Status: stepWarning, Detail: err.Error()})
	}
	if !recorded {
		bin, _ := findBinaries("")
		st.Binaries = bin
	}
	stopAgent(env, cfg, st, recorded, rep)

	if !restoreOriginal(cfg.Paths.ClaudeSettings, st, rep, "hooks in ") {
		changed, backup, err := install.RemoveHooks(cfg.Paths.ClaudeSettings, hookPathFor(st))
		rep.add(removalStep("hooks in "+cfg.Paths.ClaudeSettings, changed, dropCreatedFile(cfg.Paths.ClaudeSettings, st, backup), err))
	}
	if !restoreOriginal(cfg.Paths.ClaudeJSON, st, rep, "MCP server \"credence\" in ") {
		changed, backup, err := install.UnregisterMCP(cfg.Paths.ClaudeJSON)
		rep.add(removalStep("MCP server \"credence\" in "+cfg.Paths.ClaudeJSON, changed, dropCreatedFile(cfg.Paths.ClaudeJSON, st, backup), err))
	}
	line := cfg.GlobalMemoryImportLine()
	changed, err := install.RemoveImportLine(cfg.Paths.ClaudeMD, line)
	rep.add(removalStep(line+" in "+cfg.Paths.ClaudeMD, changed, "", err))

	removeMemoryLocks(env, cfg, rep) // before the directories they may keep from going

	// Files install created are removed again when nothing else is in them,
	// newest first so a directory goes after its files.
	for i := len(st.Created) - 1; i >= 0; i-- {
		path := st.Created[i]
		removed := false
		switch {
		case path == cfg.Paths.ClaudeSettings || path == cfg.Paths.ClaudeJSON:
			removed = isEmptyJSONObject(path) && os.Remove(path) == nil
		case path == cfg.Paths.ClaudeMD:
			removed = isBlankFile(path) && os.Remove(path) == nil
		default:
			removed = os.Remove(path) == nil // a directory: only when empty
		}
		if removed {
			rep.add(step{Name: "remove " + path, Status: stepDone, Detail: "created by install, empty now"})
		}
	}
	if st.ConfigWritten {
		data, err := os.ReadFile(cfg.Paths.ConfigFile)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err == nil && string(data) == config.DefaultFile():
			if err := os.Remove(cfg.Paths.ConfigFile); err != nil {
				rep.add(step{Name: "config file", Status: stepFailed, Detail: err.Error()})
			} else {
				rep.add(step{Name: "config file", Status: stepDone, Detail: "removed the unchanged default " + cfg.Paths.ConfigFile})
				_ = os.Remove(filepath.Dir(cfg.Paths.ConfigFile)) // only when empty
			}
		default:
			rep.add(step{Name: "config file", Status: stepUnchanged, Detail: cfg.Paths.ConfigFile + " has your edits; kept"})
		}
	}
	if err := os.Remove(installStatePath(cfg)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		rep.add(step{Name: "install state", Status: stepWarning, Detail: err.Error()})
	}
	if purge {
		if err := os.RemoveAll(cfg.Paths.DataDir); err != nil {
			rep.add(step{Name: "delete data", Status: stepFailed, Detail: err.Error()})
		} else {
			rep.add(step{Name: "delete data", Status: stepDone, Detail: "removed " + cfg.Paths.DataDir})
		}
	}
}

// dropCreatedFile removes the backup an uninstall edit just wrote of a file
// that install created and that holds nothing else now, since the file goes
// too, and returns the backup still on disk ("" when none): a step must
// never name a backup that is not there.
func dropCreatedFile(path string, st installState, backup string) string {
	if backup == "" || !slices.Contains(st.Created, path) || !isEmptyJSONObject(path) {
		return backup
	}
	if err := os.Remove(backup); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return backup
	}
	return ""
}

// removeMemoryLocks removes the MEMORY.md.lock files credence's writers
// left beside the memory files it wrote (those its database records, and
// the global one). A lock some process still holds is kept and reported;
// the agent was stopped before, so that is a writer still running.
func removeMemoryLocks(env *Env, cfg *config.Config, rep *stepReport) {
	paths := []string{cfg.Paths.GlobalMemory}
	if fileExists(cfg.Paths.Database) {
		db, err := app.OpenStore(env.Ctx, cfg, commandBusyTimeout)
		if err != nil {
			rep.add(step{Name: "MEMORY.md locks", Status: stepWarning, Detail: err.Error()})
			return
		}
		sections, err := db.MemorySections(env.Ctx)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			rep.add(step{Name: "MEMORY.md locks", Status: stepWarning, Detail: err.Error()})
			return
		}
		for _, m := range sections {
			paths = append(paths, m.Path)
		}
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	removeDetailFiles(paths, rep)
	var removed []string
	for _, path := range paths {
		lock := markdown.LockPath(path)
		switch ok, err := removeFreeLock(lock); {
		case err != nil:
			rep.add(step{Name: "lock " + lock, Status: stepWarning, Detail: err.Error(), Fix: "remove it by hand"})
		case ok:
			removed = append(removed, lock)
		}
	}
	if len(removed) > 0 {
		rep.add(step{Name: "MEMORY.md locks", Status: stepDone, Detail: "removed " + strings.Join(removed, ", ")})
	}
}

// removeDetailFiles removes the credence-<slug>.md detail files credence
// wrote beside the memory files at paths (only files that carry its mark:
// Claude Code's memory files and a person's stay).
func removeDetailFiles(paths []string, rep *stepReport) {
	n := 0
	seen := map[string]bool{}
	for _, path := range paths {
		dir := filepath.Dir(path)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		k, err := markdown.RemoveDetails(dir, markdown.Root{Dir: dir})
		n += k
		if err != nil {
			rep.add(step{Name: "detail files in " + dir, Status: stepWarning, Detail: err.Error(), Fix: "remove credence-*.md there by hand"})
		}
	}
	if n > 0 {
		rep.add(step{Name: "detail files", Status: stepDone, Detail: fmt.Sprintf("removed %d credence-*.md detail files", n)})
	}
}

// removeFreeLock removes lock when it is an empty file (credence's locks
// hold no data) that nobody holds, taking it first with flock so no writer
// loses it mid-write. It reports whether it removed the file.
func removeFreeLock(lock string) (bool, error) {
	info, err := os.Lstat(lock)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !info.Mode().IsRegular() || info.Size() != 0 {
		return false, nil // not one of ours
	}
	l := flock.New(lock)
	ok, err := l.TryLock()
	if err != nil {
		return false, fmt.Errorf("lock %s: %w", lock, err)
	}
	if !ok {
		return false, fmt.Errorf("%s is held by a running writer; kept", lock)
	}
	defer func() { _ = l.Unlock() }() // the file is gone; nothing to keep
	if err := os.Remove(lock); err != nil {
		return false, fmt.Errorf("remove %s: %w", lock, err)
	}
	return true, nil
}

// stopAgent stops the agent under the manager install used, or under every
// manager when the install was not recorded.
func stopAgent(env *Env, cfg *config.Config, st installState, recorded bool, rep *stepReport) {
	svc := agentService(env, cfg, st.Binaries)
	managers := []install.ServiceManager{install.Systemd, install.Launchd, install.Detached}
	if recorded {
		if st.Service == "" {
			rep.add(step{Name: "agent", Status: stepSkipped, Detail: "install did not start one"})
			return
		}
		managers = []install.ServiceManager{st.Service}
	}
	var failed error
	for _, m := range managers {
		if err := install.StopService(env.Ctx, serviceRunner, m, svc); err != nil && recorded {
			failed = err
		}
	}
	if failed != nil {
		rep.add(step{Name: "agent", Status: stepFailed, Detail: failed.Error(), Fix: "stop `credence agent` by hand"})
		return
	}
	rep.add(step{Name: "agent", Status: stepDone, Detail: "stopped and removed"})
}

// restoreOriginal puts back the bytes a file had before install first
// edited it, when the file is exactly as install left it; otherwise (Claude
// Code or a person changed it since) it reports false and the caller
// removes credence's entries alone.
func restoreOriginal(path string, st installState, rep *stepReport, what string) bool {
	o, ok := st.Originals[path]
	if !ok || o.After == "" || fileHash(path) != o.After {
		return false
	}
	data, err := os.ReadFile(o.Backup)
	if err != nil {
		return false
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved // keep a dotfiles manager's link a link
	}
	if err := atomicfile.WriteFile(target, data, 0o600); err != nil {
		rep.add(step{Name: what + path, Status: stepFailed, Detail: err.Error(), Fix: "copy " + o.Backup + " over it by hand"})
		return true
	}
	_ = os.Remove(o.Backup) // the file now holds the same bytes
	rep.add(step{Name: what + path, Status: stepDone, Detail: "removed; the file is back to its bytes from before install"})
	return true
}

// hookPathFor returns the hook binary install registered; RemoveHooks
// matches entries by its file name wherever it lives.
func hookPathFor(st installState) string {
	if st.Binaries.Hook != "" {
		return st.Binaries.Hook
	}
	return "/" + hookBinaryName
}

// removalStep turns the result of an uninstall edit into a step.
func removalStep(name string, changed bool, backup string, err error) step {
	switch {
	case err != nil:
		return step{Name: name, Status: stepFailed, Detail: err.Error(), Fix: "fix the file named above and run credence uninstall again"}
	case !changed:
		return step{Name: name, Status: stepUnchanged, Detail: "not there"}
	case backup != "":
		return step{Name: name, Status: stepDone, Detail: "removed; backup at " + backup}
	}
	return step{Name: name, Status: stepDone, Detail: "removed"}
}
