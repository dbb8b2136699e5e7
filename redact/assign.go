package redact

import "strings"

// envAssignment accepts NAME=value where NAME is an upper-case variable whose
// ending names a secret (DB_PASSWORD, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY).
// The shape is strong evidence on its own, so any real value is redacted,
// however plain it looks; only empty values, references ($VAR) and masks
// survive.
func envAssignment(s string, a assignment) (finding, bool) {
	if a.keyStart > 0 && isKeyByte(s[a.keyStart-1]) {
		return finding{}, false
	}
	key := s[a.keyStart:a.keyEnd]
	if key == "PWD" || key == "OLDPWD" {
		return finding{}, false // the shell's working directory, not a password
	}
	v := s[a.valStart:a.valEnd]
	if v == "" || isReference(v) || isMask(v) || isMarkerStart(v) || isPlainWord(v) {
		return finding{}, false
	}
	return finding{a.valStart, a.valEnd, marker(kindForKey(key))}, true
}

// codeAssignment accepts key = value, key: value and key => value where the
// key ends in password, secret, token, api_key and the like, in any case.
// Because the same shapes are everywhere in ordinary code (token =
// getToken(), password: string, "password": "Enter your password"), values
// are redacted only when they look like secrets: quoted literals without
// spaces, or bare values with digits or mixed case that are not calls,
// paths or references.
func codeAssignment(s string, a assignment) (finding, bool) {
	if a.keyStart > 0 && isKeyByte(s[a.keyStart-1]) {
		return finding{}, false
	}
	key := s[a.keyStart:a.keyEnd]
	if k := strings.ToLower(key); k == "pwd" || k == "oldpwd" {
		return finding{}, false
	}
	v := s[a.valStart:a.valEnd]
	if v == "" || isReference(v) || isMask(v) || isMarkerStart(v) || isPlainWord(v) {
		return finding{}, false
	}
	if !a.quoted {
		if a.valEnd < len(s) && (s[a.valEnd] == '(' || s[a.valEnd] == '[') {
			return finding{}, false // a call or an index: code, not a literal
		}
		if !bareSecret(v) {
			return finding{}, false
		}
	} else if len(v) < 4 || strings.ContainsAny(v, " \t") {
		return finding{}, false // prose, labels and messages, not credentials
	}
	return finding{a.valStart, a.valEnd, marker(kindForKey(key))}, true
}

// bareSecret reports whether an unquoted value looks like a credential
// rather than an identifier, a word, a path or a number.
func bareSecret(v string) bool {
	if len(v) < 6 || strings.ContainsAny(v[:1], "/.~") || strings.Contains(v, "://") {
		return false
	}
	var lower, upper, digit, special bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		case strings.IndexByte("!@#$%^&*+~?", c) >= 0:
			special = true
		}
	}
	letter := lower || upper
	return (digit && letter) || (upper && lower && len(v) >= 12) || (special && letter && len(v) >= 8)
}

// kindForKey names the marker after what the key says it holds.
func kindForKey(key string) string {
	k := strings.ToLower(key)
	switch {
	case strings.Contains(k, "pass") || strings.Contains(k, "pwd"):
		return "password"
	case strings.Contains(k, "token"):
		return "token"
	case strings.Contains(k, "private"):
		return "private-key"
	case strings.Contains(k, "secret"):
		return "secret"
	case strings.Contains(k, "key"):
		return "api-key"
	case strings.Contains(k, "credential"):
		return "credential"
	}
	return "secret"
}

// isPlainWord reports values that configuration uses for switches and
// placeholders rather than secrets.
func isPlainWord(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "yes", "no", "on", "off", "null", "nil", "none", "undefined",
		"string", "str", "bool", "int", "number", "required", "optional", "hidden", "redacted",
		"password", "secret", "token", "api_key", "apikey", "changeme", "example":
		return true
	}
	return false
}

// isReference reports values that point at a secret instead of holding it:
// $VAR, ${VAR}, ${{ secrets.X }}, {{ .Token }}, %(pw)s, <your-token>.
func isReference(v string) bool {
	return v != "" && strings.IndexByte("$%<{", v[0]) >= 0 ||
		strings.HasPrefix(v, "process.env") || strings.HasPrefix(v, "os.environ")
}

// isMask reports values made of one repeated masking character (****, xxxx).
func isMask(v string) bool {
	if v == "" || strings.IndexByte("*xX.-_#", v[0]) < 0 {
		return false
	}
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			return false
		}
	}
	return true
}

// isMarkerStart reports values that are already redaction markers.
func isMarkerStart(v string) bool { return strings.HasPrefix(v, markerPrefix) }

// mixedToken reports whether a token mixes letters with digits or cases,
// as generated credentials do and kebab-case words do not.
func mixedToken(v string) bool {
	var lower, upper, digit bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return (lower || upper) && (digit || (lower && upper))
}

func allDigits(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return v != ""
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isKeyByte reports bytes that can continue an identifier or variable name.
func isKeyByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

// isTokenByte reports bytes that can sit inside a token or a base64 run; a
// token prefix right after one of them is part of something longer.
func isTokenByte(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '+' || c == '/' }

// isSchemeByte reports bytes that can make up a URL scheme.
func isSchemeByte(c byte) bool { return isAlnum(c) || c == '+' || c == '.' || c == '-' }
