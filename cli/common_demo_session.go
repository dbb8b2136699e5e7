package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/credence-mem/credence/demo"
	"github.com/credence-mem/credence/internal/plural"
)

// runSessionDemo replays the scripted Claude Code session through the real
// credence-hook in a temporary HOME and shows what Claude is told and the
// MEMORY.md section that results. Without a hook binary it explains how to
// get one; that fails the command only when the session part was asked for
// alone.
func runSessionDemo(env *Env, hookOverride string, asJSON, required bool) int {
	res, skipped, err := sessionDemo(env, hookOverride)
	if err != nil {
		return env.Fail("demo", err)
	}
	if skipped != "" {
		if required {
			return env.Fail("demo", fmt.Errorf("%s", skipped))
		}
		env.Printf("(the session part is skipped: %s)\n", skipped)
		return 0
	}
	if asJSON {
		return env.JSON(res)
	}
	printSessionDemo(env, res)
	return 0
}

// runBothDemosJSON prints the toy world and the session as one JSON object.
func runBothDemosJSON(env *Env, dbPath, hookOverride string) int {
	toy, code := toyWorld(env, dbPath)
	if code != 0 {
		return code
	}
	out := map[string]any{"toy_world": toyJSON(toy)}
	res, skipped, err := sessionDemo(env, hookOverride)
	switch {
	case err != nil:
		return env.Fail("demo", err)
	case skipped != "":
		out["session_skipped"] = skipped
	default:
		out["session"] = res
	}
	return env.JSON(out)
}

// sessionDemo finds the hook binary and runs the session in a temporary
// HOME, removed afterwards. skipped says why it could not run.
func sessionDemo(env *Env, hookOverride string) (res demo.SessionResult, skipped string, err error) {
	bin, err := findBinaries(hookOverride)
	if err != nil {
		return res, "", err
	}
	if err := checkExecutable(bin.Hook); err != nil {
		return res, fmt.Sprintf("no credence-hook next to %s (%v); build both binaries with ./install.sh or pass --hook-binary", bin.Credence, err), nil
	}
	home, err := os.MkdirTemp("", "credence-session-demo-")
	if err != nil {
		return res, "", err
	}
	defer os.RemoveAll(home)
	res, err = demo.RunSession(env.Ctx, demo.SessionOptions{HookBinary: bin.Hook, Home: home})
	if err != nil {
		return res, "", err
	}
	// The paths pointed into the temporary HOME, which is gone now.
	res.Project = "~/" + relHome(home, res.Project)
	res.ProjectPath = "~/" + relHome(home, res.ProjectPath)
	res.GlobalPath = "~/" + relHome(home, res.GlobalPath)
	return res, "", nil
}

func relHome(home, path string) string {
	if rel, err := filepath.Rel(home, path); err == nil {
		return filepath.ToSlash(rel)
	}
	return path
}

func printSessionDemo(env *Env, res demo.SessionResult) {
	env.Printf("credence session demo — a scripted Claude Code session replayed through the real credence-hook\n")
	env.Printf("(a temporary HOME, project %s, offline consolidation after each session; nothing touches your real files)\n", res.Project)
	session := 0
	for _, st := range res.Steps {
		if st.Session != session {
			if session > 0 {
				printCycle(env, res, session)
			}
			session = st.Session
			env.Printf("\nSession %d\n", session)
		}
		env.Printf("  you › %s\n", st.Prompt)
		if st.Context == "" {
			env.Printf("        (nothing relevant in memory: Claude is told nothing extra)\n")
			continue
		}
		env.Printf("        Claude is told:\n%s", indentLines(st.Context, "          "))
	}
	if session > 0 {
		printCycle(env, res, session)
	}
	env.Printf("\nBeliefs after three sessions:\n")
	for _, b := range res.Beliefs {
		where := ""
		if b.Promoted {
			where = ", in MEMORY.md"
		}
		env.Printf("  %.2f  %s  (%s %s, %s%s)\n", b.Confidence, b.Statement, b.Scope, b.Kind, plural.Count(b.Evidence, "source"), where)
	}
	if res.ProjectMemory != "" {
		env.Printf("\nThe section credence keeps at the top of %s:\n%s", res.ProjectPath, indentLines(res.ProjectMemory, "  "))
	}
	env.Printf("\nA belief reaches MEMORY.md at confidence ≥ 0.70 with ≥ 3 pieces of evidence; the rest stay in recall until they earn it.\n")
}

func printCycle(env *Env, res demo.SessionResult, session int) {
	for _, c := range res.Cycles {
		if c.AfterSession == session {
			env.Printf("  ⟳ consolidation: %s → %s created, %s; %s promoted to MEMORY.md\n",
				plural.Count(c.Episodes, "episode"), plural.Count(c.Created, "belief"), plural.Count(c.Reinforced, "reinforcement"), plural.Count(c.Promoted, "belief"))
		}
	}
}

// indentLines prefixes every non-blank line of s, so blank lines carry no
// trailing spaces.
func indentLines(s, prefix string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if strings.TrimSpace(line) != "" {
			b.WriteString(prefix + line)
		}
		b.WriteString("\n")
	}
	return b.String()
}
