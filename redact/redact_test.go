package redact

import (
	"slices"
	"strings"
	"testing"
)

func TestStringMarkers(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"openai key keeps the sentence", "key sk-proj-abcDEF1234567890abcdefGHIJ works",
			"key [REDACTED:openai-key] works"},
		{"anthropic before openai", "sk-ant-api03-abcDEF1234567890abcdefGHIJ",
			"[REDACTED:anthropic-key]"},
		{"url keeps user and host", "postgres://alice:s3cr3tP4ss@db:5432/app",
			"postgres://alice:[REDACTED:url-password]@db:5432/app"},
		{"quoted assignment keeps quotes", `password = "hunter22"`, `password = "[REDACTED:password]"`},
		{"env line redacts any value", "DB_PASSWORD=letmein", "DB_PASSWORD=[REDACTED:password]"},
		{"bearer keeps scheme", "Authorization: Bearer abcdef0123456789abcdef",
			"Authorization: Bearer [REDACTED:bearer-token]"},
		{"private block spans lines", "a <private>x\ny</private> b", "a [REDACTED:private] b"},
		{"two private blocks", "<private>a</private> mid <Private>b</Private>",
			"[REDACTED:private] mid [REDACTED:private]"},
		{"aws id needs full length", "AKIAIOSFODNN7EXAMPLE and AKIA", "[REDACTED:aws-access-key] and AKIA"},
		{"aws id inside a longer word survives", "XAKIAIOSFODNN7EXAMPLEX", "XAKIAIOSFODNN7EXAMPLEX"},
		{"query string keeps next parameter", "?token=abc123def456&page=2", "?token=[REDACTED:token]&page=2"},
		{"empty", "", ""},
		{"marker is left alone", "password = [REDACTED:password]", "password = [REDACTED:password]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q)=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStringReturnsInputWhenClean(t *testing.T) {
	in := strings.Repeat("nothing to see here, DEBUG=true\n", 100)
	if out := String(in); out != in {
		t.Fatalf("String() changed clean text")
	}
	b := []byte(in)
	if out := Bytes(b); &out[0] != &b[0] {
		t.Errorf("Bytes() copied clean input, want the same slice")
	}
}

func TestCaseVariants(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"word", []string{"bearer"}, []string{"bearer", "Bearer", "BEARER"}},
		{"tag capitalises the first letter", []string{"<private>"}, []string{"<private>", "<Private>", "<PRIVATE>"}},
		{"no letters", []string{"://"}, []string{"://"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := caseVariants(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("caseVariants(%q)=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestBareSecret(t *testing.T) {
	tests := []struct {
		v    string
		want bool
	}{
		{"hunter22", true},
		{"abc", false},
		{"correcthorse", false},
		{"CorrectHorseBattery", true},
		{"/run/secrets/db", false},
		{"req.headers.authorization", false},
		{"P@ssword!", true},
	}
	for _, tt := range tests {
		t.Run(tt.v, func(t *testing.T) {
			if got := bareSecret(tt.v); got != tt.want {
				t.Errorf("bareSecret(%q)=%v, want %v", tt.v, got, tt.want)
			}
		})
	}
}

func TestKeyBodyLen(t *testing.T) {
	tests := []struct {
		name, in string
		want     int
	}{
		{"stops at prose", "\nQUJD\nREVG\nnot base64 here", len("\nQUJD\nREVG")},
		{"escaped breaks", `\nQUJD\nREVG\n"}`, len(`\nQUJD\nREVG`)},
		{"header lines", "\nProc-Type: 4,ENCRYPTED\nQUJD", len("\nProc-Type: 4,ENCRYPTED\nQUJD")},
		{"nothing", " words", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keyBodyLen(tt.in); got != tt.want {
				t.Errorf("keyBodyLen(%q)=%d, want %d", tt.in, got, tt.want)
			}
		})
	}
}
