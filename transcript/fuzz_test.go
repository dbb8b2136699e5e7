package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func addFixtureSeeds(f *testing.F, add func(data []byte)) {
	paths, err := filepath.Glob("testdata/*.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		add(data)
	}
}

// FuzzParseLine checks that any bytes parse or fail without panicking, and
// that a parsed line always has a type.
func FuzzParseLine(f *testing.F) {
	addFixtureSeeds(f, func(data []byte) {
		for _, line := range bytes.Split(data, []byte("\n")) {
			f.Add(line)
		}
	})
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"tool_result","content":[]}]}]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := ParseLine(b)
		if err == nil && l.Type == "" {
			t.Fatalf("ParseLine(%q) returned a line without a type", b)
		}
		PromptText(l)
	})
}

// FuzzReadExchanges checks on arbitrary bytes that reading never panics,
// offsets stay in order and inside the file, and that reading a prefix and
// then resuming on the whole file reports no exchange twice and misses
// none that one whole read reports.
func FuzzReadExchanges(f *testing.F) {
	addFixtureSeeds(f, func(data []byte) { f.Add(data, uint16(len(data)/2)) })
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		full, next, err := ReadExchanges(bytes.NewReader(data), 0)
		if err != nil {
			t.Fatalf("ReadExchanges() error: %v", err)
		}
		if next < 0 || next > int64(len(data)) {
			t.Fatalf("next=%d outside [0,%d]", next, len(data))
		}
		checkOffsets(t, full, 0, next)

		k := int(cut) % (len(data) + 1)
		first, mid, err := ReadExchanges(bytes.NewReader(data[:k]), 0)
		if err != nil || mid > int64(k) {
			t.Fatalf("prefix read: next=%d of %d, err %v", mid, k, err)
		}
		rest, end, err := ReadExchanges(bytes.NewReader(data), mid)
		if err != nil {
			t.Fatalf("resumed read from %d: %v", mid, err)
		}
		if end < mid || end > int64(len(data)) {
			t.Fatalf("resumed next=%d outside [%d,%d]", end, mid, len(data))
		}
		checkOffsets(t, rest, mid, end)
		seen := map[string]bool{}
		for _, e := range append(first, rest...) {
			if seen[e.Key()] {
				t.Fatalf("exchange %q reported twice", e.Prompt)
			}
			seen[e.Key()] = true
		}
		for _, e := range full {
			if !seen[e.Key()] {
				t.Fatalf("exchange %q missed after resuming at %d", e.Prompt, mid)
			}
		}
	})
}
