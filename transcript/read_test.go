package transcript

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func prompts(exs []Exchange) []string {
	var out []string
	for _, e := range exs {
		out = append(out, e.Prompt)
	}
	return out
}

func TestReadFileFixtures(t *testing.T) {
	tests := []struct {
		name        string
		file        string
		prompts     []string
		occurrences []int
		// stopAt is the prompt whose line next must point at, or "" for the
		// end of the file.
		stopAt string
	}{
		{"several exchanges with tools and noise", "session.jsonl",
			[]string{"Why does TestWidgetRender fail on CI but not locally?", "Please pin it to UTC and run the tests again",
				"What is in this screenshot?", "Please pin it to UTC and run the tests again"},
			[]int{1, 1, 1, 2}, ""},
		{"torn last line", "torn.jsonl", []string{"List the files in cmd/"}, []int{1}, "What does credence-hook do?"},
		{"crlf line endings", "crlf.jsonl", []string{"Say hello", "Say goodbye\r\nin two lines"}, []int{1, 1}, ""},
		{"empty file", "empty.jsonl", nil, nil, ""},
		{"tool call waiting at the end", "pending.jsonl", nil, nil, "Check the disk usage"},
		{"compaction", "compact.jsonl", []string{"Start the migration work", "Continue with the second migration"}, []int{1, 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("testdata", tt.file)
			exs, next, err := ReadFile(t.Context(), path, 0)
			if err != nil {
				t.Fatalf("ReadFile() error: %v", err)
			}
			if got := prompts(exs); !slices.Equal(got, tt.prompts) {
				t.Errorf("prompts=%q, want %q", got, tt.prompts)
			}
			var occ []int
			for _, e := range exs {
				occ = append(occ, e.Occurrence)
			}
			if !slices.Equal(occ, tt.occurrences) {
				t.Errorf("occurrences=%v, want %v", occ, tt.occurrences)
			}
			data := readFixture(t, tt.file)
			want := int64(len(data))
			if tt.stopAt != "" {
				want = int64(lineStartOf(t, data, tt.stopAt))
			}
			if next != want {
				t.Errorf("next=%d, want %d (file size %d)", next, want, len(data))
			}
			checkOffsets(t, exs, 0, next)
		})
	}
}

// lineStartOf returns the offset of the line holding the prompt text.
func lineStartOf(t *testing.T, data []byte, prompt string) int {
	t.Helper()
	i := bytes.Index(data, []byte(`"content":"`+prompt+`"`))
	if i < 0 {
		t.Fatalf("prompt %q not in fixture", prompt)
	}
	return bytes.LastIndexByte(data[:i], '\n') + 1
}

// checkOffsets asserts that exchanges lie in [from, next] in order.
func checkOffsets(t *testing.T, exs []Exchange, from, next int64) {
	t.Helper()
	prev := from
	for _, e := range exs {
		if e.StartOffset < prev || e.EndOffset <= e.StartOffset || e.EndOffset > next {
			t.Errorf("exchange %q spans [%d,%d), want inside [%d,%d] after %d",
				e.Prompt, e.StartOffset, e.EndOffset, from, next, prev)
		}
		prev = e.EndOffset
	}
}

func TestSessionGolden(t *testing.T) {
	exs, _, err := ReadFile(t.Context(), "testdata/session.jsonl", 0)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range exs {
		fmt.Fprintf(&b, "=== %s occurrence=%d bytes=[%d,%d) uuid=%s at=%s..%s cwd=%s branch=%s\n%s\n",
			e.Key(), e.Occurrence, e.StartOffset, e.EndOffset, e.UserUUID,
			e.Timestamp.Format("15:04:05.000"), e.EndTimestamp.Format("15:04:05.000"), e.Cwd, e.GitBranch, e.Text())
	}
	const golden = "testdata/session.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("read golden (run with -update to create it): %v", err)
	}
	if b.String() != string(want) {
		t.Errorf("exchanges differ from %s (run with -update after checking):\n%s", golden, b.String())
	}
}

func TestToolSummaries(t *testing.T) {
	exs, _, err := ReadFile(t.Context(), "testdata/session.jsonl", 0)
	if err != nil || len(exs) == 0 {
		t.Fatalf("ReadFile()=%d, %v", len(exs), err)
	}
	got := exs[0].Tools
	want := []ToolUse{
		{Name: "Read", Input: "/home/alex/code/widgets/widget/render_test.go"},
		{Name: "Bash", Input: "go test ./widget/ -run TestWidgetRender -count=1", IsError: true,
			Error: "--- FAIL: TestWidgetRender (0.00s)"},
	}
	if len(got) != len(want) {
		t.Fatalf("Tools=%+v, want %+v", got, want)
	}
	for i := range want {
		got[i].ID = ""
		if got[i] != want[i] {
			t.Errorf("Tools[%d]=%+v, want %+v", i, got[i], want[i])
		}
	}
	if strings.Contains(exs[0].Response, "package widget") || strings.Contains(exs[0].Response, "timezone or ordering") {
		t.Errorf("Response holds tool output or thinking: %q", exs[0].Response)
	}
}

func TestReadExchangesOffsets(t *testing.T) {
	data := readFixture(t, "session.jsonl")
	tests := []struct {
		name string
		from int64
		want error
	}{
		{"past the end", int64(len(data)) + 10, ErrOffset},
		{"inside a line", 5, ErrOffset},
		{"negative", -1, ErrOffset},
		{"at the end", int64(len(data)), nil},
		{"at a line start", int64(bytes.IndexByte(data, '\n') + 1), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, next, err := ReadExchanges(bytes.NewReader(data), tt.from)
			if !errors.Is(err, tt.want) {
				t.Fatalf("ReadExchanges(from %d) error=%v, want %v", tt.from, err, tt.want)
			}
			if err == nil && (next < tt.from || next > int64(len(data))) {
				t.Errorf("next=%d outside [%d,%d]", next, tt.from, len(data))
			}
		})
	}
}

// TestReadFileResuming reads from a stored offset, and from the start when
// the offset no longer fits (the file was rewritten), saying so.
func TestReadFileResuming(t *testing.T) {
	path := filepath.Join("testdata", "session.jsonl")
	all, end, err := ReadFile(t.Context(), path, 0)
	if err != nil || len(all) == 0 {
		t.Fatalf("ReadFile: %d exchanges, %v", len(all), err)
	}
	tests := []struct {
		name       string
		from       int64
		wantReread bool
		wantCount  int
	}{
		{"from the start", 0, false, len(all)},
		{"at the end", end, false, 0},
		{"offset inside a line", 5, true, len(all)},
		{"offset past the end", end + 100, true, len(all)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exs, next, reread, err := ReadFileResuming(t.Context(), path, tt.from)
			if err != nil || reread != tt.wantReread || len(exs) != tt.wantCount || next != end {
				t.Errorf("ReadFileResuming(%d)=%d exchanges, next %d, reread %v, %v; want %d, %d, %v",
					tt.from, len(exs), next, reread, err, tt.wantCount, end, tt.wantReread)
			}
		})
	}
}
