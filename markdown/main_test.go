package markdown

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The tests re-execute their own binary as a second OS process, as exec
// tests do: with helperEnv set, TestMain runs that helper instead of tests.
const (
	helperEnv     = "CREDENCE_MARKDOWN_HELPER"
	helperFileEnv = "CREDENCE_MARKDOWN_HELPER_FILE"
	helperStopEnv = "CREDENCE_MARKDOWN_HELPER_STOP"
)

// platformHelpers are helpers defined only on some systems, by name.
var platformHelpers = map[string]func() int{}

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "claude":
		os.Exit(runClaudeLikeWriter(os.Getenv(helperFileEnv), os.Getenv(helperStopEnv)))
	case "rewriter":
		os.Exit(runRewriter(os.Getenv(helperFileEnv)))
	default:
		if run, ok := platformHelpers[os.Getenv(helperEnv)]; ok {
			os.Exit(run())
		}
		fmt.Fprintf(os.Stderr, "unknown helper %q\n", os.Getenv(helperEnv))
		os.Exit(2)
	}
}

// claudeNote is the line the Claude-like writer appends as note n, version v.
func claudeNote(n, v int) string { return fmt.Sprintf("- claude note %04d v%d", n, v) }

// runClaudeLikeWriter edits the file the way Claude Code's Write and Edit
// tools do (writeFileSyncAndFlush: a temp file named
// <file>.tmp.<pid>.<ms>, flushed, renamed over the file) and without any
// lock: it appends a note, and every third round bumps the version of an
// earlier note. It runs until the stop file exists, then prints the lines
// it expects the file to hold, one per line.
func runClaudeLikeWriter(path, stop string) int {
	version := map[int]int{}
	next := 0
	for round := 0; ; round++ {
		if _, err := os.Stat(stop); err == nil && round > 0 {
			break
		}
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		text := string(data)
		if round%3 == 2 && next > 0 {
			n := rand.IntN(next)
			old := claudeNote(n, version[n]) + "\n"
			if strings.Contains(text, old) {
				version[n]++
				text = strings.Replace(text, old, claudeNote(n, version[n])+"\n", 1)
			}
		} else {
			if !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			version[next] = 1
			text += claudeNote(next, 1) + "\n"
			next++
		}
		if err := writeLikeClaudeCode(path, []byte(text)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		// Claude Code writes between model turns, seconds apart at the
		// least; a write every ~75 ms is far busier than it, yet leaves
		// an instrumented (-race) writer on a loaded machine room to win.
		time.Sleep(time.Duration(rand.IntN(150)) * time.Millisecond)
	}
	w := bufio.NewWriter(os.Stdout)
	for n := range next {
		fmt.Fprintln(w, claudeNote(n, version[n]))
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// writeLikeClaudeCode is Claude Code's writeFileSyncAndFlush: write a temp
// file beside the target with flush (fsync), then rename it over the target.
func writeLikeClaudeCode(path string, data []byte) error {
	tmp := fmt.Sprintf("%s.tmp.%d.%d", path, os.Getpid(), time.Now().UnixMilli())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// counterSection is the section the rewriter writes in round i: its size
// varies so that a torn write would show.
func counterSection(i int) string {
	s := Section{Beliefs: []Entry{{ID: "bl_counter", Statement: "Counter is " + strconv.Itoa(i), Confidence: 0.9, Evidence: 3}}}
	for k := range i % 9 {
		s.Beliefs = append(s.Beliefs, Entry{ID: fmt.Sprint("bl_", k), Statement: strings.Repeat("padding ", 1+k*3), Confidence: 0.8, Evidence: 3})
	}
	if i%2 == 1 {
		s.Former = formers(1 + i%5)
	}
	return RenderSection(s)
}

// counterOf returns the round a file's section was written in.
func counterOf(doc []byte) (int, bool) {
	p, ok := ParseSection(doc)
	if !ok {
		return 0, false
	}
	b := p.Bullets(HeadingBeliefs)
	if len(b) == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(b[0].Statement, "Counter is "))
	return n, err == nil
}

// runRewriter rewrites the section of path forever, printing "ready" once
// the first write is done, until it is killed.
func runRewriter(path string) int {
	start, _ := counterOf(mustRead(path))
	for i := start + 1; ; i++ {
		if _, err := WriteSection(context.Background(), path, constant(counterSection(i)), WriteOptions{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if i == start+1 {
			fmt.Println("ready")
		}
	}
}

func mustRead(path string) []byte {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return b
}

// helperCommand returns the environment for re-executing the test binary as
// a helper.
func helperEnvironment(helper, file string, extra ...string) []string {
	return append(os.Environ(), append([]string{helperEnv + "=" + helper, helperFileEnv + "=" + file}, extra...)...)
}

// testBinary is the path of the running test binary.
func testBinary(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(exe)
}
