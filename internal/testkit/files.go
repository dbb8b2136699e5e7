package testkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FilesContaining lists the files under dir whose bytes contain text,
// skipping the paths in except: the check behind "the secret is nowhere on
// disk" and "a forget leaves no byte behind".
func FilesContaining(t *testing.T, dir, text string, except ...string) []string {
	t.Helper()
	skip := map[string]bool{}
	for _, e := range except {
		skip[e] = true
	}
	var hits []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || skip[path] {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(text)) {
			hits = append(hits, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

// LastJSONLine decodes the last line of a JSON-lines file (a log).
func LastJSONLine(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	var m map[string]any
	if err := json.Unmarshal(lines[len(lines)-1], &m); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return m
}

// JSONKeys returns the top-level keys of a JSON object line in order,
// repeats included: decoding into a map keeps only the last of a repeated
// key, which hides a logger that writes one twice.
func JSONKeys(t *testing.T, line string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not a JSON object: %s", line)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%v in %s", err, line)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("%v in %s", err, line)
		}
	}
	return keys
}

// BenchHome returns the home directory scripts/bench-hooks.sh seeds
// ($CREDENCE_BENCH_HOME, default /tmp/credence-bench), skipping the
// benchmark when there is none. Its data directory is BenchDataDir.
func BenchHome(b *testing.B) string {
	home := os.Getenv("CREDENCE_BENCH_HOME")
	if home == "" {
		home = "/tmp/credence-bench"
	}
	if _, err := os.Stat(filepath.Join(home, "queries.json")); err != nil {
		b.Skipf("no bench database: %v (run scripts/bench-hooks.sh first)", err)
	}
	return home
}

// BenchDataDir is the data directory under a BenchHome.
func BenchDataDir(home string) string { return filepath.Join(home, ".local/share/credence") }

// CopyDatabase copies credence.db and its WAL, if any, from one data
// directory to another, so a benchmark that writes leaves the seeded one as
// it was.
func CopyDatabase(from, to string) error {
	if err := os.MkdirAll(to, 0o700); err != nil {
		return err
	}
	for _, name := range []string{"credence.db", "credence.db-wal"} {
		data, err := os.ReadFile(filepath.Join(from, name))
		if errors.Is(err, fs.ErrNotExist) && name != "credence.db" {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), data, 0o600); err != nil {
			return err
		}
	}
	return nil
}
