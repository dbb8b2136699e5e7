package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/app"
	"github.com/credence-mem/credence/config"
	"github.com/credence-mem/credence/consolidate"
	"github.com/credence-mem/credence/hookrelay"
	"github.com/credence-mem/credence/install"
	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/syncer"
)

func init() {
	Register(Command{
		Name:    "doctor",
		Usage:   "[--full] [--json]",
		Summary: "check every piece (binaries, hooks, MCP, agent, database, LLM endpoint, sync) and say how to fix what is wrong",
		Run:     runDoctor,
	})
}

// Doctor statuses.
const (
	checkOK      = "ok"
	checkProblem = "problem"
	checkSkipped = "skipped"
)

// endpointTimeout bounds each network check.
const endpointTimeout = 3 * time.Second

// httpClient makes doctor's endpoint checks; tests may replace it.
var httpClient = &http.Client{Timeout: endpointTimeout}

func runDoctor(env *Env, args []string) int {
	fs := env.Flags("doctor")
	full := fs.Bool("full", false, "run the full PRAGMA integrity_check instead of quick_check")
	asJSON := fs.Bool("json", false, "print the checks as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	rep := &stepReport{env: env, quiet: *asJSON}
	diagnose(env, rep, *full)
	if *asJSON {
		if code := env.JSON(rep); code != 0 {
			return code
		}
	} else if rep.failed() {
		env.Printf("\nsomething needs attention: follow the fix lines above, then run credence doctor again.\n")
	} else {
		env.Printf("\nall good.\n")
	}
	if rep.failed() {
		return 1
	}
	return 0
}

// diagnose runs every check in order of dependence: a broken config or
// database makes the checks after it meaningless, the rest are independent.
func diagnose(env *Env, rep *stepReport, fullCheck bool) {
	ok := func(name, detail string) { rep.add(step{Name: name, Status: checkOK, Detail: detail}) }
	bad := func(name, detail, fix string) {
		rep.add(step{Name: name, Status: checkProblem, Detail: detail, Fix: fix})
	}
	skip := func(name, detail string) { rep.add(step{Name: name, Status: checkSkipped, Detail: detail}) }

	cfg, err := env.Config()
	var invalid *config.ValidationError
	switch {
	case err != nil && errors.As(err, &invalid) && cfg != nil:
		bad("config", strings.ReplaceAll(invalid.Error(), "\n", " "), "edit "+cfg.Paths.ConfigFile+" (credence config shows the effective values)")
	case err != nil:
		bad("config", err.Error(), "fix the config file or the CREDENCE_* variable named above")
		return
	default:
		if detail, present := describeConfigFile(cfg); present {
			ok("config", detail)
		} else {
			bad("config", detail, "run credence install (it writes the file), or credence config init")
		}
	}

	st, _, _ := readInstallState(cfg)
	bin := st.Binaries
	if bin.Credence == "" {
		bin, _ = findBinaries("")
	}
	if err := checkExecutable(bin.Hook); err != nil {
		bad("binaries", err.Error(), "rebuild and reinstall: ./install.sh")
	} else {
		ok("binaries", bin.Credence+", "+bin.Hook)
	}

	if missing, err := install.MissingHooks(cfg.Paths.ClaudeSettings, bin.Hook); err != nil {
		bad("hooks", err.Error(), "fix "+cfg.Paths.ClaudeSettings+", then run credence install")
	} else if len(missing) > 0 {
		bad("hooks", "not registered for "+strings.Join(missing, ", ")+" in "+cfg.Paths.ClaudeSettings, "run credence install")
	} else {
		ok("hooks", "all "+strconv.Itoa(len(install.HookEvents))+" events in "+cfg.Paths.ClaudeSettings)
		ok("memory edits", memoryEditsDetail(cfg))
	}

	if reg, err := install.MCPRegistered(cfg.Paths.ClaudeJSON, bin.Credence); err != nil {
		bad("MCP server", err.Error(), "fix "+cfg.Paths.ClaudeJSON+", then run credence install")
	} else if !reg {
		bad("MCP server", "\"credence\" is not registered for "+bin.Credence+" in "+cfg.Paths.ClaudeJSON, "run credence install")
	} else {
		ok("MCP server", "registered in "+cfg.Paths.ClaudeJSON)
	}

	line := cfg.GlobalMemoryImportLine()
	if data, err := os.ReadFile(cfg.Paths.ClaudeMD); err != nil || !hasImportLine(string(data), line) {
		bad("global memory import", line+" is missing from "+cfg.Paths.ClaudeMD, "run credence install")
	} else {
		ok("global memory import", line+" in "+cfg.Paths.ClaudeMD)
	}

	if _, err := os.Stat(cfg.Paths.Database); err != nil {
		bad("database", "no database at "+cfg.Paths.Database, "run credence install (or any credence command) to create it")
		return
	}
	db, err := app.OpenStore(env.Ctx, cfg, commandBusyTimeout)
	if err != nil {
		bad("database", err.Error(), "check the permissions of "+cfg.Paths.DataDir+"; if the file is damaged, move it away and run credence import")
		return
	}
	defer db.Close()
	if detail, err := checkDatabase(env.Ctx, db, fullCheck); err != nil {
		bad("database", err.Error(), "stop the agent, copy "+cfg.Paths.Database+" aside and run `sqlite3 credence.db .recover`, or start over with credence import")
	} else {
		ok("database", detail)
	}

	name, detail, fix, healthy := checkAgent(env, cfg, db, st)
	if healthy {
		ok(name, detail)
	} else {
		bad(name, detail, fix)
	}
	if detail, fix, good := checkHookHandOver(env, cfg, db, bin, healthy); good {
		ok("hook hand-over", detail)
	} else {
		bad("hook hand-over", detail, fix)
	}

	agentView := map[string]store.EndpointHealth{} // what the running agent found
	if hb, health, err := db.ReadAgentHealth(env.Ctx, time.Now()); err == nil && health.Running {
		for _, e := range hb.Endpoints {
			agentView[e.Name] = e
		}
	}
	for _, ep := range endpointsOf(cfg) {
		seen, known := agentView[ep.which]
		switch err := checkEndpoint(env.Ctx, ep.base, ep.key); {
		case err != nil && known && seen.Down:
			bad(ep.name, err.Error()+"; the agent: "+describeEndpoint(seen, time.Now()), ep.fix)
		case err != nil:
			bad(ep.name, err.Error(), ep.fix)
		case known && seen.Down:
			ok(ep.name, ep.base+" answers now; the agent: "+describeEndpoint(seen, time.Now()))
		default:
			ok(ep.name, ep.base+" answers")
		}
	}
	if !cfg.LLMEnabled() {
		skip("LLM endpoint", "not configured: consolidation runs offline (set llm.base_url or OPENAI_API_KEY for LLM mode)")
	}

	if !cfg.SyncEnabled() {
		skip("sync", "not configured (sync.url)")
		return
	}
	ctx, cancel := context.WithTimeout(env.Ctx, syncer.DefaultStatusTimeout)
	defer cancel()
	ss, err := syncer.Status(ctx, db, cfg)
	name, detail, fix, good := judgeSync(ss, err, agentView[syncer.EndpointSync])
	if good {
		ok(name, detail)
	} else {
		bad(name, detail, fix)
	}
}

// judgeSync turns a live look at the remote into doctor's line: whether
// it answers, takes the token and has a schema this credence writes, and
// the rows waiting each way; with what the running agent's loop last saw
// when it disagrees.
func judgeSync(ss syncer.State, err error, agent store.EndpointHealth) (name, detail, fix string, good bool) {
	const name0 = "sync"
	tokenFix := "set sync.token in the config file (or CREDENCE_SYNC_TOKEN) to a token for this database " +
		"(turso db tokens create <db>)"
	switch {
	case err != nil:
		return name0, err.Error(), "check sync.url and sync.token (credence config)", false
	case ss.Token == syncer.TokenRefused:
		return name0, ss.Remote + " refused the token: " + ss.RemoteError, tokenFix, false
	case !ss.Reachable:
		detail = ss.Remote + " unreachable: " + ss.RemoteError
		if ss.PendingPush > 0 {
			detail += fmt.Sprintf("; %d rows wait here to push", ss.PendingPush)
		}
		return name0, detail, "check the network and sync.url; local memory keeps working and syncs when the remote answers", false
	case ss.RemoteError != "":
		return name0, ss.Remote + " answered with an error: " + ss.RemoteError, "see the sync log; the next round retries", false
	case ss.RemoteSchema != "" && ss.RemoteSchema != syncer.RemoteSchemaVersion:
		return name0, fmt.Sprintf("%s has sync schema %s; this credence writes %s", ss.Remote, ss.RemoteSchema,
			syncer.RemoteSchemaVersion), "upgrade credence on this machine", false
	}
	var parts []string
	if ss.Token == syncer.TokenAccepted {
		parts = append(parts, "token accepted")
	}
	if ss.RemoteSchema == "" {
		parts = append(parts, "no credence tables yet (the first round creates them)")
	} else {
		parts = append(parts, "sync schema "+ss.RemoteSchema)
	}
	parts = append(parts, fmt.Sprintf("%d rows to push, %d to pull", ss.PendingPush, ss.PendingPull))
	detail = ss.Remote + " reachable, " + strings.Join(parts, ", ")
	if agent.Down {
		detail += "; the agent's last rounds failed (" + agent.Error + ") and it retries at " +
			agent.NextTry.Local().Format(time.TimeOnly)
	} else if ss.LastError != "" {
		detail += "; last round failed: " + ss.LastError
	}
	return name0, detail, "", true
}

// describeConfigFile says which config file is in use, and whether there
// is one: install always writes it, so a missing file means credence is
// not installed (or was uninstalled) and runs on defaults.
func describeConfigFile(cfg *config.Config) (detail string, present bool) {
	switch _, err := os.Stat(cfg.Paths.ConfigFile); {
	case err == nil:
		return cfg.Paths.ConfigFile + describeMode(cfg), true
	case errors.Is(err, fs.ErrNotExist):
		return "no config file at " + cfg.Paths.ConfigFile + ": running on defaults" + describeMode(cfg), false
	default:
		return cfg.Paths.ConfigFile + ": " + err.Error(), false
	}
}

func describeMode(cfg *config.Config) string {
	if cfg.LLMEnabled() {
		return " (LLM mode, model " + cfg.LLM.Model + ")"
	}
	return " (offline mode)"
}

func hasImportLine(text, line string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

// checkDatabase runs SQLite's quick_check (or integrity_check and FTS5's
// check of each full-text index) and compares the schema version with the
// one this binary knows.
func checkDatabase(ctx context.Context, db *store.DB, full bool) (string, error) {
	check := "quick_check"
	if full {
		check = "integrity_check"
	}
	problems, err := db.CheckIntegrity(ctx, full)
	if err != nil {
		return "", err
	}
	if len(problems) > 0 {
		return "", fmt.Errorf("%s found %d problems, first: %s", check, len(problems), problems[0])
	}
	have, err := db.SchemaVersion(ctx)
	if err != nil {
		return "", err
	}
	want, err := store.LatestSchemaVersion()
	if err != nil {
		return "", err
	}
	if have != want {
		return "", fmt.Errorf("schema version %d, this binary expects %d", have, want)
	}
	episodes, err := db.CountEpisodes(ctx)
	if err != nil {
		return "", err
	}
	counts, err := db.CountBeliefs(ctx)
	if err != nil {
		return "", err
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	return fmt.Sprintf("%s passed; %d episodes, %d beliefs (%d active), schema %d", check,
		episodes, total, counts["active"], have), nil
}

// checkAgent reads the agent's heartbeat and asks the service manager.
func checkAgent(env *Env, cfg *config.Config, db *store.DB, st installState) (name, detail, fix string, healthy bool) {
	name, fix = "agent", "run credence install to (re)start it, or `credence agent` in a terminal; its log is in "+cfg.Paths.LogDir
	var beat time.Time
	alive := false // judged as credence status judges it
	if hb, err := db.ReadAgentHeartbeat(env.Ctx); err == nil && hb.State != store.AgentStopped {
		beat, alive = hb.BeatAt, store.JudgeAgent(hb, true, time.Now()).Running
	}
	running := false
	if st.Service != "" {
		running, _ = install.ServiceRunning(env.Ctx, serviceRunner, st.Service, agentService(env, cfg, st.Binaries))
	}
	age := time.Since(beat)
	switch {
	case alive:
		return name, fmt.Sprintf("alive, last heartbeat %s ago", age.Round(time.Second)), "", true
	case running && beat.IsZero():
		return name, "running as a " + describeManager(st.Service) + "; no heartbeat recorded yet", "", true
	case running:
		return name, fmt.Sprintf("the process runs but its last heartbeat is %s old: stuck", age.Round(time.Second)),
			"restart it: credence install; then read " + cfg.Paths.LogDir + "/agent.log", false
	case beat.IsZero():
		return name, "not running", fix, false
	}
	return name, fmt.Sprintf("not running; last heartbeat %s ago", age.Round(time.Second)), fix, false
}

// checkHookHandOver says how hook events are handled: by the agent over
// its socket, or in-process (slower) by credence-hook-local or, without
// it, `credence hook`, one of which must then be next to credence-hook.
func checkHookHandOver(env *Env, cfg *config.Config, db *store.DB, bin binaries, agentHealthy bool) (detail, fix string, good bool) {
	sock := hookrelay.SocketPath(cfg.Paths.DataDir)
	local := filepath.Join(filepath.Dir(bin.Hook), hookrelay.LeanHandler)
	slower := ""
	if checkExecutable(local) != nil {
		local = filepath.Join(filepath.Dir(bin.Hook), "credence")
		if err := checkExecutable(local); err != nil {
			return "neither " + hookrelay.LeanHandler + " nor credence next to " + bin.Hook + ": without the agent the hooks cannot run at all (" + err.Error() + ")",
				"install the binaries in one directory: ./install.sh", false
		}
		slower = "; " + hookrelay.LeanHandler + " is missing there, so each such event starts the whole credence binary"
	}
	hb, err := db.ReadAgentHeartbeat(env.Ctx)
	_, serr := os.Stat(sock)
	switch {
	case agentHealthy && err == nil && hb.Hooks && serr == nil:
		return fmt.Sprintf("answered by the agent on %s (%d events by its last heartbeat)", sock, hb.HooksServed), "", true
	case agentHealthy && err != nil:
		return "the agent has not reported yet; until it answers on " + sock + " the hooks run in-process", "", true
	case agentHealthy:
		return "the agent is not answering them (no socket at " + sock + "); they run in-process, slower",
			"read " + cfg.Paths.LogDir + "/agent.log for why, then restart the agent: credence install", false
	}
	fix = "start the agent: credence install"
	if slower != "" {
		fix += "; ./install.sh also installs " + hookrelay.LeanHandler
	}
	return "handled in-process by " + local + " while the agent is down (slower)" + slower, fix, false
}

// endpoint is an OpenAI-compatible API doctor checks; which is its name in
// the agent's heartbeat (consolidate.EndpointLLM or EndpointEmbedder).
type endpoint struct{ name, which, base, key, fix string }

// endpointsOf lists the endpoints the configuration uses: the LLM's when
// LLM mode is on and the embedder's when it is the openai kind (once when
// both are the same).
func endpointsOf(cfg *config.Config) []endpoint {
	const openAI = "https://api.openai.com/v1"
	var out []endpoint
	if cfg.LLMEnabled() {
		base := cfg.LLM.BaseURL
		if base == "" {
			base = openAI
		}
		out = append(out, endpoint{"LLM endpoint", consolidate.EndpointLLM, base, cfg.LLM.APIKey,
			"check llm.base_url and llm.api_key (credence config); a local server (Ollama: ollama serve) must be running; consolidation falls back to offline meanwhile"})
	}
	if cfg.Embedder.Kind == "openai" {
		base := cfg.Embedder.BaseURL
		if base == "" {
			base = openAI
		}
		if len(out) == 0 || out[0].base != base {
			out = append(out, endpoint{"embedding endpoint", consolidate.EndpointEmbedder, base, cfg.Embedder.APIKey,
				"check embedder.base_url and embedder.api_key; meanwhile recall is lexical and consolidation uses the offline embedder"})
		}
	}
	return out
}

// checkEndpoint asks an OpenAI-compatible server for its models.
func checkEndpoint(ctx context.Context, base, key string) error {
	ctx, cancel := context.WithTimeout(ctx, endpointTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models", nil)
	if err != nil {
		return fmt.Errorf("bad base URL %q: %w", base, err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		// The error names the URL, never the key.
		return fmt.Errorf("GET %s/models: %w", strings.TrimRight(base, "/"), errors.Unwrap(err))
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return fmt.Errorf("%s rejected the API key (HTTP %d)", base, resp.StatusCode)
	case resp.StatusCode >= 300:
		return fmt.Errorf("GET %s/models: HTTP %d", strings.TrimRight(base, "/"), resp.StatusCode)
	}
	return nil
}

// memoryEditsDetail says what the PostToolUse hook has recorded of the
// model's edits to memory files (docs/HOOKS.md).
func memoryEditsDetail(cfg *config.Config) string {
	recs, err := hookrelay.ReadEditLog(cfg.Paths.DataDir, time.Time{})
	switch {
	case err != nil:
		return "edit log unreadable: " + err.Error()
	case len(recs) == 0:
		return "PostToolUse (" + install.EditMatcher + ") records the model's edits to memory files; none yet"
	}
	last := recs[len(recs)-1]
	return fmt.Sprintf("%s of the model's edits to memory files recorded, the last %s ago (%s %s)",
		plural.Count(len(recs), "record"), time.Since(last.Time).Round(time.Second), last.Tool, filepath.Base(last.Path))
}
