package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/store"
)

// cmdHarness runs credence commands against a temporary HOME.
type cmdHarness struct {
	t    *testing.T
	home string
	vars map[string]string
}

func newCmdHarness(t *testing.T) *cmdHarness {
	t.Helper()
	home := t.TempDir()
	return &cmdHarness{t: t, home: home, vars: map[string]string{"HOME": home}}
}

// run runs one command and returns its exit code, stdout and stderr.
func (h *cmdHarness) run(args ...string) (int, string, string) {
	h.t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Ctx: context.Background(), Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: config.EnvMap(h.vars), Home: h.home}
	code := env.Run(args)
	return code, out.String(), errb.String()
}

// ok runs a command that must succeed and returns its stdout.
func (h *cmdHarness) ok(args ...string) string {
	h.t.Helper()
	code, out, errs := h.run(args...)
	if code != 0 {
		h.t.Fatalf("credence %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, out, errs)
	}
	return out
}

// json runs a command with --json right after its name and decodes its
// output into v.
func (h *cmdHarness) json(v any, args ...string) {
	h.t.Helper()
	out := h.ok(append([]string{args[0], "--json"}, args[1:]...)...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		h.t.Fatalf("credence %s --json: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// config loads the harness's configuration.
func (h *cmdHarness) config() *config.Config {
	h.t.Helper()
	cfg, err := app.LoadConfig(app.Options{Home: h.home, Env: config.EnvMap(h.vars)})
	if err != nil {
		h.t.Fatal(err)
	}
	return cfg
}

// db opens the harness's database; it is closed when the test ends.
func (h *cmdHarness) db() *store.DB {
	h.t.Helper()
	db, err := app.OpenStore(context.Background(), h.config(), 0)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { db.Close() })
	return db
}

// decodeJSON decodes a command's JSON output.
func decodeJSON(t *testing.T, out string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("decode %q: %v", out, err)
	}
}
