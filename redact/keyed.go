package redact

import (
	"slices"
	"strings"
)

const (
	// keyLimit bounds the length of a key in an assignment.
	keyLimit = 160
	// valueLimit bounds how far after the separator a value may end.
	valueLimit = 1024
)

// envKeys are the endings of upper-case variable names that hold secrets.
// A name must end with one of them (TOKEN_TTL does not), and the part before
// it must end with an underscore (BYPASS is not PASS).
const envKeys = `SECRET_KEY_BASE|SECRET_ACCESS_KEY|SECRET_KEY|ACCESS_KEY|PRIVATE_KEY|API_KEY|APIKEY|` +
	`PASSWORD|PASSWD|PASSPHRASE|PASS|PWD|SECRET|TOKEN|CREDENTIALS|CREDENTIAL|AUTH|DSN`

var (
	envSuffixes = strings.Split(envKeys, "|")
	// assignSuffixes are the endings of identifiers, in any case, whose
	// assigned value is a secret in code, YAML, JSON or prose.
	assignSuffixes = []string{"password", "passwd", "passphrase", "pwd", "secret", "secretkey", "secret_key",
		"secret-key", "token", "apikey", "api_key", "api-key", "accesskey", "access_key", "access-key",
		"privatekey", "private_key", "private-key", "credential", "credentials"}
)

// assignment is a key and its value, as spans of the text.
type assignment struct {
	keyStart, keyEnd int
	valStart, valEnd int
	// quoted is set when the value was written between quotes.
	quoted bool
}

// keyedRule builds a rule for assignments. Instead of anchoring on the many
// secret words, which are common in prose, it visits every ':' and '=',
// reads the key in front of it and parses the value only when keyOK likes
// the key. The parsing is by hand: a regular expression run at every
// candidate would cost more than the rest of the redaction together.
func keyedRule(name string, env bool, keyOK func(string) bool,
	accept func(string, assignment) (finding, bool)) rule {
	return rule{name: name, scan: func(s string, out []finding, first bool) []finding {
		return scanKeyed(s, out, first, env, keyOK, accept)
	}}
}

// scanKeyed finds assignments whose key passes keyOK and which accept
// takes, in order and without overlaps. In env mode only NAME=value counts.
func scanKeyed(s string, out []finding, first, env bool, keyOK func(string) bool,
	accept func(string, assignment) (finding, bool)) []finding {
	covered := 0
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], ":=")
		if j < 0 {
			break
		}
		p := i + j
		i = p + 1
		if s[p] == '=' && i < len(s) && s[i] == '=' {
			i++ // a comparison, not an assignment
			continue
		}
		if env && s[p] != '=' {
			continue
		}
		keyEnd := p
		for keyEnd > covered && (s[keyEnd-1] == ' ' || s[keyEnd-1] == '\t') {
			keyEnd--
		}
		if !env && keyEnd > covered && (s[keyEnd-1] == '"' || s[keyEnd-1] == '\'') {
			keyEnd--
		}
		start := keyEnd
		for floor := max(covered, keyEnd-keyLimit); start > floor && isKeyByte(s[start-1]); {
			start--
		}
		if start == keyEnd || !keyOK(s[start:keyEnd]) {
			continue
		}
		a, ok := parseValue(s, p, env)
		if !ok {
			continue
		}
		a.keyStart, a.keyEnd = start, keyEnd
		if f, ok := accept(s, a); ok {
			out = append(out, f)
			if first {
				return out
			}
			covered = a.valEnd
			i = max(i, covered)
		}
	}
	return out
}

// parseValue reads the separator at p (=, :, := or =>) and the value after
// it: a quoted string that closes on the same line, or a bare run of bytes.
func parseValue(s string, p int, env bool) (assignment, bool) {
	i := p + 1
	if i < len(s) && (s[p] == ':' && s[i] == '=' || s[p] == '=' && s[i] == '>') && !env {
		i++
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	limit := min(len(s), i+valueLimit)
	if i < len(s) && (s[i] == '"' || s[i] == '\'' || s[i] == '`' && !env) {
		q := s[i]
		for k := i + 1; k < limit; k++ {
			switch s[k] {
			case q:
				return assignment{valStart: i + 1, valEnd: k, quoted: true}, true
			case '\n':
				return assignment{}, false
			}
		}
		return assignment{}, false
	}
	stop, firstStop := envBareStop, envBareStop
	if !env {
		stop, firstStop = codeBareStop, codeBareFirstStop
	}
	k := i
	if k < limit && !firstStop[s[k]] {
		for k++; k < limit && !stop[s[k]]; k++ {
		}
	}
	return assignment{valStart: i, valEnd: k}, k > i || env
}

// Byte sets that end a bare value. Code values also stop at punctuation
// that separates arguments or parameters (&, ;, ,) and cannot start with '='
// (a == b is a comparison).
var (
	envBareStop       = byteSet(" \t\r\n\v\f'\"")
	codeBareStop      = byteSet(" \t\r\n\v\f,;&'\"`()[]{}<>")
	codeBareFirstStop = byteSet(" \t\r\n\v\f,;&'\"`()[]{}<>=")
)

func byteSet(chars string) (set [256]bool) {
	for i := 0; i < len(chars); i++ {
		set[chars[i]] = true
	}
	return set
}

// envNames are variables that hold secrets without a separating underscore:
// libpq's PGPASSWORD and sshpass -e's SSHPASS.
var envNames = []string{"PGPASSWORD", "SSHPASS"}

// envKeyOK reports upper-case names that end in a secret word at an
// underscore boundary, or are one of envNames.
func envKeyOK(key string) bool {
	for i := 0; i < len(key); i++ {
		if c := key[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	for _, suf := range envSuffixes {
		if n := len(key) - len(suf); n >= 0 && key[n:] == suf && (n == 0 || key[n-1] == '_') {
			return true
		}
	}
	return slices.Contains(envNames, key)
}

// assignKeyOK reports keys that end in a secret word, in any case.
func assignKeyOK(key string) bool {
	for _, suf := range assignSuffixes {
		if n := len(key) - len(suf); n >= 0 && strings.EqualFold(key[n:], suf) {
			return true
		}
	}
	return false
}
