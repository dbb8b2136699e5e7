package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The binaries under test, built once by TestMain, side by side as
// install.sh leaves them: credence-hook runs credence-hook-local when no
// agent answers, as an installed hook does.
var credenceBin, hookBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "credence-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	credenceBin, hookBin = filepath.Join(dir, "credence"), filepath.Join(dir, "credence-hook")
	code := 1
	if err := build(credenceBin, "./cmd/credence"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else if err := build(hookBin, "./cmd/credence-hook"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else if err := build(filepath.Join(dir, "credence-hook-local"), "./cmd/credence-hook-local"); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// build compiles one of the module's commands with cgo, as install.sh does.
func build(out, pkg string) error {
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}
