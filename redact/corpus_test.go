package redact

import (
	"os"
	"strings"
	"testing"
)

// corpusCase is one text from testdata with the secret values it holds.
type corpusCase struct {
	name    string
	secrets []string
	text    string
}

// loadCorpus reads a testdata file of cases. A case starts with a line
// "=== name", may list secrets as "--- secret: value" lines, and its text is
// every following line up to the next case, without the final line break.
func loadCorpus(t testing.TB, path string) []corpusCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read corpus: %v", err)
	}
	var cases []corpusCase
	var cur *corpusCase
	var body []string
	flush := func() {
		if cur != nil {
			cur.text = strings.Join(body, "\n")
			cases = append(cases, *cur)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "=== "):
			flush()
			cur, body = &corpusCase{name: strings.TrimPrefix(line, "=== ")}, nil
		case cur == nil:
			// file header comments
		case len(body) == 0 && strings.HasPrefix(line, "--- secret: "):
			cur.secrets = append(cur.secrets, strings.TrimPrefix(line, "--- secret: "))
		default:
			body = append(body, line)
		}
	}
	flush()
	return cases
}

// survivingFragment returns an 8-byte piece of secret (or the whole secret
// if shorter) that still occurs in out, or "" if none does.
func survivingFragment(out, secret string) string {
	const n = 8
	if len(secret) < n {
		if strings.Contains(out, secret) {
			return secret
		}
		return ""
	}
	for i := 0; i+n <= len(secret); i++ {
		if frag := secret[i : i+n]; strings.Contains(out, frag) {
			return frag
		}
	}
	return ""
}

func TestSecretsCorpus(t *testing.T) {
	cases := loadCorpus(t, "testdata/secrets.txt")
	if len(cases) < 50 {
		t.Fatalf("secrets corpus has %d cases, want at least 50", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if len(c.secrets) == 0 {
				t.Fatal("case lists no secret")
			}
			for _, s := range c.secrets {
				if !strings.Contains(c.text, s) {
					t.Fatalf("secret %q does not occur in the case text", s)
				}
			}
			if !Contains(c.text) {
				t.Errorf("Contains()=false, want true")
			}
			out := String(c.text)
			for _, s := range c.secrets {
				if frag := survivingFragment(out, s); frag != "" {
					t.Errorf("fragment %q of secret survived in:\n%s", frag, out)
				}
			}
			if !strings.Contains(out, markerPrefix) {
				t.Errorf("String() has no marker:\n%s", out)
			}
			if again := String(out); again != out {
				t.Errorf("String(String(x)) changed the text:\n%s\nto\n%s", out, again)
			}
		})
	}
}

func TestLookalikesCorpus(t *testing.T) {
	cases := loadCorpus(t, "testdata/lookalikes.txt")
	if len(cases) < 50 {
		t.Fatalf("look-alike corpus has %d cases, want at least 50", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if out := String(c.text); out != c.text {
				t.Errorf("String() changed a text without secrets:\n%s\nto\n%s", c.text, out)
			}
			if Contains(c.text) {
				t.Errorf("Contains()=true, want false")
			}
			if out := Bytes([]byte(c.text)); string(out) != c.text {
				t.Errorf("Bytes() changed a text without secrets")
			}
		})
	}
}
