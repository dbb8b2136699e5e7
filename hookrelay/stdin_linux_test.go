package hookrelay

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestReadStdin(t *testing.T) {
	pipe := func(t *testing.T, data []byte, closeIt bool) *os.File {
		t.Helper()
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		go func() {
			w.Write(data)
			if closeIt {
				w.Close()
			}
		}()
		return r
	}
	big := bytes.Repeat([]byte("x"), 1<<20)
	tests := []struct {
		name    string
		in      func(t *testing.T) *os.File
		max     int64
		want    []byte
		wantErr error
	}{
		{"a pipe within the cap", func(t *testing.T) *os.File { return pipe(t, []byte(`{"a":1}`), true) }, 100, []byte(`{"a":1}`), nil},
		{"exactly the cap", func(t *testing.T) *os.File { return pipe(t, []byte(`{"a":1}`), true) }, 7, []byte(`{"a":1}`), nil},
		{"over the cap", func(t *testing.T) *os.File { return pipe(t, []byte(`{"a":12}`), true) }, 7, nil, ErrInputTooLarge},
		{"a megabyte over a smaller cap", func(t *testing.T) *os.File { return pipe(t, big, false) }, 1 << 19, nil, ErrInputTooLarge},
		{"a megabyte", func(t *testing.T) *os.File { return pipe(t, big, true) }, 4 << 20, big, nil},
		{"a writer that never closes", func(t *testing.T) *os.File { return pipe(t, []byte(`{"a"`), false) }, 100, nil, ErrInputTimeout},
		{"a regular file", func(t *testing.T) *os.File {
			p := filepath.Join(t.TempDir(), "in")
			os.WriteFile(p, []byte("{}"), 0o600)
			f, _ := os.Open(p)
			t.Cleanup(func() { f.Close() })
			return f
		}, 100, []byte("{}"), nil},
		{"empty", func(t *testing.T) *os.File { return pipe(t, nil, true) }, 100, []byte{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.in(t)
			// The budget only has to run out for the writer that never
			// closes; every other case gets one no loaded machine misses,
			// so the test checks what is read, not how fast.
			budget := 30 * time.Second
			if errors.Is(tc.wantErr, ErrInputTimeout) {
				budget = 200 * time.Millisecond
			}
			got, err := ReadStdin(int(f.Fd()), tc.max, budget)
			if !errors.Is(err, tc.wantErr) || !bytes.Equal(got, tc.want) {
				t.Errorf("ReadStdin()=%d bytes, %v; want %d bytes, %v", len(got), err, len(tc.want), tc.wantErr)
			}
		})
	}
	t.Run("a closed descriptor", func(t *testing.T) {
		f, _ := os.Open(os.DevNull)
		fd := int(f.Fd())
		f.Close()
		if _, err := ReadStdin(fd, 100, time.Second); err == nil {
			t.Error("no error")
		}
	})
}
