package install

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeRunner records commands and simulates processes.
type fakeRunner struct {
	commands [][]string
	fail     map[string]bool // command line (joined by spaces) → fails
	output   map[string]string
	nextPID  int
	alive    map[int]bool
	started  [][]string
	stopped  []int
}

func newFakeRunner() *fakeRunner {
	return &fakeRunner{fail: map[string]bool{}, output: map[string]string{}, nextPID: 100, alive: map[int]bool{}}
}

func (f *fakeRunner) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	line := strings.Join(append([]string{name}, args...), " ")
	f.commands = append(f.commands, append([]string{name}, args...))
	if f.fail[line] {
		return []byte("boom"), errors.New("exit status 1")
	}
	return []byte(f.output[line]), nil
}

func (f *fakeRunner) StartDetached(name string, args []string, logPath string) (int, error) {
	if _, err := os.Stat(filepath.Dir(logPath)); err != nil {
		return 0, err
	}
	f.nextPID++
	f.alive[f.nextPID] = true
	f.started = append(f.started, append([]string{name}, args...))
	return f.nextPID, nil
}

func (f *fakeRunner) Alive(pid int) bool { return f.alive[pid] }

func (f *fakeRunner) Stop(pid int) error {
	f.stopped = append(f.stopped, pid)
	delete(f.alive, pid)
	return nil
}

func (f *fakeRunner) lines() []string {
	var out []string
	for _, c := range f.commands {
		out = append(out, strings.Join(c, " "))
	}
	return out
}

func testService(t *testing.T) Service {
	home := t.TempDir()
	return Service{
		Binary:  filepath.Join(home, ".local/bin/credence"),
		DataDir: filepath.Join(home, ".local/share/credence"),
		Home:    home,
		UID:     501,
	}
}

func TestSystemdUnit(t *testing.T) {
	tests := []struct {
		name, binary, dataDir string
		want                  []string
	}{
		{"plain path", "/home/u/.local/bin/credence", "/home/u/.local/share/credence",
			[]string{"ExecStart=/home/u/.local/bin/credence agent\n", "WorkingDirectory=-/home/u/.local/share/credence\n"}},
		{"blank in path", "/home/Jane Doe/bin/credence", "/home/Jane Doe/data",
			[]string{"ExecStart=\"/home/Jane Doe/bin/credence\" agent\n", "WorkingDirectory=-/home/Jane Doe/data\n"}},
		{"specifier characters", "/opt/100%/$bin/credence", "/d%",
			[]string{"ExecStart=/opt/100%%/$$bin/credence agent\n", "WorkingDirectory=-/d%%\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			unit := SystemdUnit(tt.binary, tt.dataDir)
			for _, w := range append(tt.want, "[Service]\n", "Restart=on-failure\n", "WantedBy=default.target\n") {
				if !strings.Contains(unit, w) {
					t.Errorf("unit lacks %q:\n%s", w, unit)
				}
			}
			if strings.Contains(unit, "CREDENCE_") {
				t.Errorf("unit sets CREDENCE_* variables, which would override the config file:\n%s", unit)
			}
		})
	}
}

// plistStrings returns the text of every <string> in a plist, checking
// that it is well-formed XML.
func plistStrings(t *testing.T, plist string) []string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(plist))
	var out []string
	inString := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("plist is not well-formed XML: %v\n%s", err, plist)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inString = tok.Name.Local == "string"
		case xml.CharData:
			if inString {
				out = append(out, string(tok))
			}
		case xml.EndElement:
			inString = false
		}
	}
}

func TestLaunchdPlist(t *testing.T) {
	binary := "/Users/J&J <dev>/bin/credence"
	plist := LaunchdPlist(binary, "/Users/J&J <dev>/data")
	got := plistStrings(t, plist)
	want := []string{LaunchdLabel, binary, "agent", "Background", "/Users/J&J <dev>/data",
		"/Users/J&J <dev>/data/logs/agent.out.log", "/Users/J&J <dev>/data/logs/agent.out.log"}
	if !slices.Equal(got, want) {
		t.Errorf("plist strings = %q, want %q", got, want)
	}
	for _, w := range []string{"<key>RunAtLoad</key>\n\t<true/>", "<key>SuccessfulExit</key>\n\t\t<false/>"} {
		if !strings.Contains(plist, w) {
			t.Errorf("plist lacks %q", w)
		}
	}
}

func TestDetectServiceManager(t *testing.T) {
	tests := []struct {
		name      string
		goos      string
		noSystemd bool
		want      ServiceManager
	}{
		{"macOS", "darwin", false, Launchd},
		{"Linux with a user manager", "linux", false, Systemd},
		{"Linux without one (containers, WSL)", "linux", true, Detached},
		{"other systems", "freebsd", false, Detached},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newFakeRunner()
			r.fail["systemctl --user show-environment"] = tt.noSystemd
			if got := DetectServiceManager(context.Background(), tt.goos, r); got != tt.want {
				t.Errorf("DetectServiceManager = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSystemdStartStop(t *testing.T) {
	ctx := context.Background()
	s := testService(t)
	r := newFakeRunner()
	if err := StartService(ctx, r, Systemd, s); err != nil {
		t.Fatalf("StartService: %v", err)
	}
	unit := filepath.Join(s.Home, ".config/systemd/user", SystemdUnitName)
	if data, err := os.ReadFile(unit); err != nil || string(data) != SystemdUnit(s.Binary, s.DataDir) {
		t.Errorf("unit file = %q, %v", data, err)
	}
	wantStart := []string{
		"systemctl --user daemon-reload",
		"systemctl --user enable credence-agent.service",
		"systemctl --user restart credence-agent.service",
	}
	if got := r.lines(); !slices.Equal(got, wantStart) {
		t.Errorf("start ran %q, want %q", got, wantStart)
	}
	if _, err := os.Stat(filepath.Join(s.DataDir, "logs")); err != nil {
		t.Errorf("log directory not created: %v", err)
	}

	r.output["systemctl --user is-active credence-agent.service"] = "active\n"
	if ok, err := ServiceRunning(ctx, r, Systemd, s); err != nil || !ok {
		t.Errorf("ServiceRunning = %v, %v; want true", ok, err)
	}

	r.commands = nil
	if err := StopService(ctx, r, Systemd, s); err != nil {
		t.Fatalf("StopService: %v", err)
	}
	wantStop := []string{"systemctl --user disable --now credence-agent.service", "systemctl --user daemon-reload"}
	if got := r.lines(); !slices.Equal(got, wantStop) {
		t.Errorf("stop ran %q, want %q", got, wantStop)
	}
	if _, err := os.Stat(unit); !os.IsNotExist(err) {
		t.Errorf("unit file left behind: %v", err)
	}

	r.commands = nil
	if err := StopService(ctx, r, Systemd, s); err != nil || len(r.commands) > 0 {
		t.Errorf("second StopService = %v and ran %q; want nothing", err, r.lines())
	}
}

func TestSystemdStartReportsFailure(t *testing.T) {
	r := newFakeRunner()
	r.fail["systemctl --user enable credence-agent.service"] = true
	err := StartService(context.Background(), r, Systemd, testService(t))
	if err == nil || !strings.Contains(err.Error(), "systemctl --user enable") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("StartService error = %v, want the failing command and its output", err)
	}
}

func TestSystemdUnitFollowsXDGConfigHome(t *testing.T) {
	s := testService(t)
	s.XDGConfigHome = filepath.Join(s.Home, "cfg")
	if err := StartService(context.Background(), newFakeRunner(), Systemd, s); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Home, "cfg/systemd/user", SystemdUnitName)); err != nil {
		t.Errorf("unit not under XDG_CONFIG_HOME: %v", err)
	}
}

func TestLaunchdStartStop(t *testing.T) {
	tests := []struct {
		name          string
		bootstrapFail bool
		want          []string
	}{
		{"bootstrap", false, []string{
			"launchctl bootout gui/501/" + LaunchdLabel,
			"launchctl bootstrap gui/501 PLIST",
		}},
		{"old launchctl falls back to load", true, []string{
			"launchctl bootout gui/501/" + LaunchdLabel,
			"launchctl bootstrap gui/501 PLIST",
			"launchctl load -w PLIST",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := testService(t)
			plist := LaunchdPlistPath(s.Home)
			r := newFakeRunner()
			r.fail["launchctl bootstrap gui/501 "+plist] = tt.bootstrapFail
			if err := StartService(ctx, r, Launchd, s); err != nil {
				t.Fatalf("StartService: %v", err)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, strings.ReplaceAll(w, "PLIST", plist))
			}
			if got := r.lines(); !slices.Equal(got, want) {
				t.Errorf("start ran %q, want %q", got, want)
			}
			if data, err := os.ReadFile(plist); err != nil || string(data) != LaunchdPlist(s.Binary, s.DataDir) {
				t.Errorf("plist = %q, %v", data, err)
			}

			r.commands = nil
			if err := StopService(ctx, r, Launchd, s); err != nil {
				t.Fatalf("StopService: %v", err)
			}
			if got := r.lines(); !slices.Equal(got, []string{"launchctl bootout gui/501/" + LaunchdLabel}) {
				t.Errorf("stop ran %q", got)
			}
			if _, err := os.Stat(plist); !os.IsNotExist(err) {
				t.Errorf("plist left behind: %v", err)
			}
		})
	}
}

func TestDetachedStartStop(t *testing.T) {
	ctx := context.Background()
	s := testService(t)
	r := newFakeRunner()
	if err := StartService(ctx, r, Detached, s); err != nil {
		t.Fatalf("StartService: %v", err)
	}
	if !slices.Equal(r.started[0], []string{s.Binary, "agent"}) {
		t.Errorf("started %q, want %q agent", r.started[0], s.Binary)
	}
	pid, err := readPID(s.PIDFile())
	if err != nil || pid != 101 {
		t.Fatalf("pid file = %d, %v; want 101", pid, err)
	}
	if info, _ := os.Stat(s.PIDFile()); info.Mode().Perm() != 0o600 {
		t.Errorf("pid file mode = %o, want 600", info.Mode().Perm())
	}
	if ok, err := ServiceRunning(ctx, r, Detached, s); err != nil || !ok {
		t.Errorf("ServiceRunning = %v, %v; want true", ok, err)
	}

	// Installing again replaces the running agent with a new one.
	if err := StartService(ctx, r, Detached, s); err != nil {
		t.Fatalf("second StartService: %v", err)
	}
	if !slices.Equal(r.stopped, []int{101}) {
		t.Errorf("stopped %v, want the old agent 101", r.stopped)
	}
	if pid, _ := readPID(s.PIDFile()); pid != 102 {
		t.Errorf("pid file = %d after restart, want 102", pid)
	}

	if err := StopService(ctx, r, Detached, s); err != nil {
		t.Fatalf("StopService: %v", err)
	}
	if r.Alive(102) {
		t.Errorf("agent 102 still alive after StopService")
	}
	if _, err := os.Stat(s.PIDFile()); !os.IsNotExist(err) {
		t.Errorf("pid file left behind: %v", err)
	}
	if ok, _ := ServiceRunning(ctx, r, Detached, s); ok {
		t.Errorf("ServiceRunning = true after stop")
	}
}

func TestDetachedStaleAndBadPIDFiles(t *testing.T) {
	tests := []struct {
		name    string
		content string
		wantErr bool
	}{
		{"stale pid of a gone process", "4242\n", false},
		{"garbage", "not a pid", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := testService(t)
			if err := os.MkdirAll(s.DataDir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(s.PIDFile(), []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			r := newFakeRunner()
			err := StopService(context.Background(), r, Detached, s)
			if (err != nil) != tt.wantErr {
				t.Fatalf("StopService error = %v, want error %v", err, tt.wantErr)
			}
			if len(r.stopped) > 0 {
				t.Errorf("signalled %v, a process that is not running", r.stopped)
			}
		})
	}
}
