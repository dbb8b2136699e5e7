package redact

import (
	"strings"
	"testing"
)

// FuzzString checks that redaction never panics, is idempotent, agrees with
// Contains and leaves text without secrets exactly as it was.
func FuzzString(f *testing.F) {
	for _, path := range []string{"testdata/secrets.txt", "testdata/lookalikes.txt"} {
		for _, c := range loadCorpus(f, path) {
			f.Add(c.text)
		}
	}
	f.Add("<private>unclosed")
	f.Add("-----BEGIN RSA PRIVATE KEY-----\\nQUJD\\n")
	f.Add("KEY=abc<private>x</private>")
	f.Fuzz(func(t *testing.T, in string) {
		out := String(in)
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\nin    %q\nonce  %q\ntwice %q", in, out, again)
		}
		contains := Contains(in)
		if contains != (out != in) {
			t.Fatalf("Contains()=%v but String() changed=%v for %q", contains, out != in, in)
		}
		if !contains && out != in {
			t.Fatalf("text without secrets changed: %q -> %q", in, out)
		}
		if out != in && !strings.Contains(out, markerPrefix) {
			t.Fatalf("changed text has no marker: %q -> %q", in, out)
		}
		if b := Bytes([]byte(in)); string(b) != out {
			t.Fatalf("Bytes()=%q, String()=%q", b, out)
		}
	})
}
