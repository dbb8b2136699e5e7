package transcript

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// withReadCap lowers the per-read cap for one test.
func withReadCap(t *testing.T, n int64) {
	t.Helper()
	old := maxRead
	maxRead = n
	t.Cleanup(func() { maxRead = old })
}

// TestFileReadsWhatWasThere checks that a transcript that grows while it is
// read is read only up to the size it had when opened.
func TestFileReadsWhatWasThere(t *testing.T) {
	data := readFixture(t, "session.jsonl")
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(bytes.Repeat(data, 3)); err != nil {
		t.Fatal(err)
	}
	w.Close()
	_, next, err := ReadExchanges(f, 0)
	if err != nil || next != int64(len(data)) {
		t.Errorf("ReadExchanges on the grown file: next=%d, err %v; want %d, nil", next, err, len(data))
	}
}

// TestReadHonoursContext checks that a read under a context that is done
// stops with the context's error, for exchanges and for prompt scans.
func TestReadHonoursContext(t *testing.T) {
	path := filepath.Join("testdata", "session.jsonl")
	ctx, cancel := context.WithCancel(t.Context())
	f, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cancel()
	if _, _, err := ReadExchanges(f, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadExchanges after cancel: %v, want context.Canceled", err)
	}
	var s PromptScanner
	if _, _, err := s.Scan(f); !errors.Is(err, context.Canceled) {
		t.Errorf("Scan after cancel: %v, want context.Canceled", err)
	}
	if _, _, err := ReadFile(ctx, path, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadFile after cancel: %v, want context.Canceled", err)
	}
}

// TestReadCapResumes reads a transcript under a cap smaller than the file
// but larger than any of its turns: call after call from the offset each
// returns, the exchanges are those of one whole read, each once.
func TestReadCapResumes(t *testing.T) {
	path := filepath.Join("testdata", "session.jsonl")
	whole, end, err := ReadFile(t.Context(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	withReadCap(t, 6000)
	var got []string
	from, calls := int64(0), 0
	for {
		exs, next, reread, err := ReadFileResuming(t.Context(), path, from)
		if err != nil || reread {
			t.Fatalf("ReadFileResuming(from %d): reread %v, %v", from, reread, err)
		}
		if next-from > maxRead {
			t.Fatalf("ReadFileResuming(from %d) moved to %d, past the cap", from, next)
		}
		for _, e := range exs {
			got = append(got, e.Key())
		}
		calls++
		if next == from {
			break
		}
		from = next
	}
	var want []string
	for _, e := range whole {
		want = append(want, e.Key())
	}
	if !slices.Equal(got, want) || from != end || calls < 3 {
		t.Errorf("capped reads: %d calls ending at %d, keys %v; want the whole read's %v ending at %d", calls, from, got, want, end)
	}
}

// TestReadCapLongTurn checks that a turn longer than the cap is reported
// with what fits rather than read again forever.
func TestReadCapLongTurn(t *testing.T) {
	const (
		prompt = `{"type":"user","sessionId":"s","message":{"role":"user","content":"write a lot"}}` + "\n"
		next   = `{"type":"user","sessionId":"s","message":{"role":"user","content":"thanks"}}` + "\n"
	)
	reply := func(i int) string {
		return `{"type":"assistant","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"part ` +
			strings.Repeat("x", i) + `"}]}}` + "\n"
	}
	var b strings.Builder
	b.WriteString(prompt)
	for i := range 40 {
		b.WriteString(reply(i))
	}
	b.WriteString(next)
	data := []byte(b.String())
	withReadCap(t, 2000)
	exs, nx, err := readExchanges(bytes.NewReader(data), 0, maxRead)
	if err != nil || len(exs) != 1 || exs[0].Prompt != "write a lot" || nx <= 0 || nx > maxRead {
		t.Fatalf("capped long turn: %d exchanges, next %d, %v; want it reported and the offset moved", len(exs), nx, err)
	}
	rest, end, err := readExchanges(bytes.NewReader(data), nx, maxRead)
	if err != nil || len(rest) != 0 || end <= nx {
		t.Errorf("after the cut: %d exchanges, next %d (from %d), %v; want none and progress", len(rest), end, nx, err)
	}
}

// TestPromptScannerCap checks that a scan stopped by the cap says so and
// that the scans after it reach what one uncapped scan finds.
func TestPromptScannerCap(t *testing.T) {
	data := readFixture(t, "session.jsonl")
	want, wantOK, err := LastPrompt(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	withReadCap(t, 4000)
	var s PromptScanner
	capped := 0
	for range 20 {
		got, ok, err := s.Scan(bytes.NewReader(data))
		if errors.Is(err, ErrReadCap) {
			capped++
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if got != want || ok != wantOK || capped == 0 {
			t.Errorf("after %d capped scans: (%+v, %v), want (%+v, %v) after at least one", capped, got, ok, want, wantOK)
		}
		return
	}
	t.Fatal("the scanner never got to the end")
}
