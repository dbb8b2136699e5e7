package cli

import (
	"runtime"
	"runtime/debug"
	"time"

	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "version",
		Usage:   "[--json]",
		Summary: "print the version, the commit it was built from, the Go version and the database schema it writes (also --version)",
		Run:     runVersion,
	})
}

// versionInfo is what `credence version` reports. Go stamps the commit and
// its time into binaries built from a checkout; it records no build time,
// so builds stay reproducible.
type versionInfo struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"` // RFC 3339, UTC
	Modified   bool   `json:"modified"`              // built with uncommitted changes
	Go         string `json:"go"`
	Platform   string `json:"platform"`
	Schema     int    `json:"schema_version"`
}

// readVersion gathers the version from the build information bi (nil when
// the binary has none).
func readVersion(bi *debug.BuildInfo) versionInfo {
	v := versionInfo{Version: "unknown", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func runVersion(env *Env, args []string) int {
	fs := env.Flags("version")
	asJSON := fs.Bool("json", false, "print the version as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	bi, _ := debug.ReadBuildInfo()
	v := readVersion(bi)
	schema, err := store.LatestSchemaVersion()
	if err != nil {
		return env.Fail("version", err)
	}
	v.Schema = schema
	if *asJSON {
		return env.JSON(v)
	}
	env.Printf("credence %s\n", v.Version)
	if v.Commit != "" {
		line := v.Commit
		if len(line) > 12 {
			line = line[:12]
		}
		if t, err := time.Parse(time.RFC3339, v.CommitTime); err == nil {
			line += ", committed " + t.UTC().Format("2006-01-02 15:04 UTC")
		}
		if v.Modified {
			line += ", with uncommitted changes"
		}
		env.Printf("commit  %s\n", line)
	} else {
		env.Printf("commit  unknown (built without version control information)\n")
	}
	env.Printf("go      %s %s\n", v.Go, v.Platform)
	env.Printf("schema  %d\n", v.Schema)
	return 0
}
