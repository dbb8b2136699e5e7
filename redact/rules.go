package redact

import (
	"regexp"
	"strings"
)

// rule finds one kind of secret. Most rules are a literal anchor that every
// match contains plus an expression anchored at the start of the candidate;
// the block rules (<private>, PEM keys) parse by hand instead. Running the
// expression only where an anchor is found keeps the cost proportional to
// the number of candidates, not to the length of the text times the number
// of rules.
type rule struct {
	name    string
	anchors []string
	// fold means the anchors are also searched capitalised and in upper
	// case (see caseVariants); the expression itself should use (?i).
	fold bool
	// back is how far before an anchor a match may start; the candidate
	// start is found by stepping back over bytes for which startByte holds.
	back      int
	startByte func(byte) bool
	// fwd bounds how far after the anchor a match may end. Matches never
	// cross a line break.
	fwd int
	// inside, when set, rejects a candidate whose preceding byte shows it is
	// the middle of a longer token, before the expression runs.
	inside func(byte) bool
	// re must start with ^: it is matched at the candidate start only. It
	// is compiled the first time an anchor is found (see lazyRegexp).
	re func() *regexp.Regexp
	// accept turns one match (submatch indices into s) into a finding.
	accept func(s string, m []int) (finding, bool)
	// scan replaces anchors and re for the block rules.
	scan func(s string, out []finding, first bool) []finding
}

// find appends the rule's findings in s to out, in order and without
// overlaps. With first set it stops at the first finding, for Contains.
func (r *rule) find(s string, out []finding, first bool) []finding {
	if r.scan != nil {
		return r.scan(s, out, first)
	}
	covered, lastStart := 0, -1
	for _, h := range anchorHits(s, r.anchors) {
		if h < covered {
			continue
		}
		start := h
		for floor := max(covered, h-r.back); start > floor && r.startByte(s[start-1]); {
			start--
		}
		if start == lastStart || (r.inside != nil && start > 0 && r.inside(s[start-1])) {
			continue // tried already, or the middle of a longer token
		}
		lastStart = start
		end := min(len(s), h+r.fwd)
		if nl := strings.IndexByte(s[h:end], '\n'); nl >= 0 {
			end = h + nl
		}
		m := r.re().FindStringSubmatchIndex(s[start:end])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += start
			}
		}
		if f, ok := r.accept(s, m); ok {
			out = append(out, f)
			if first {
				return out
			}
			covered = m[1]
		}
	}
	return out
}

// rules run in this order; each sees the text as redacted by the ones
// before it, so specific token shapes win over the generic assignment rules
// and a value that is already a marker is left alone.
var rules = []rule{
	{name: "private", scan: scanPrivateTags},
	{name: "private-key", scan: scanPEM},
	tokenRule("anthropic-key", []string{"sk-ant-"}, `^sk-ant-[A-Za-z0-9_-]{20,}`, 1024, mixedToken),
	tokenRule("openai-key", []string{"sk-"}, `^sk-[A-Za-z0-9_-]{20,}`, 1024, mixedToken),
	tokenRule("github-token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, `^gh[pousr]_[A-Za-z0-9]{30,}`, 1024, mixedToken),
	tokenRule("github-token", []string{"github_pat_"}, `^github_pat_[A-Za-z0-9_]{22,}`, 1024, mixedToken),
	tokenRule("slack-token", []string{"xox"}, `^xox[abposre]-[A-Za-z0-9-]{10,}`, 1024, mixedToken),
	{
		name: "slack-webhook", anchors: []string{"://hooks.slack.com/"}, back: 8, startByte: isSchemeByte, fwd: 1024, inside: isAlnum,
		re:     lazyRegexp(`^https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/-]{8,}`),
		accept: wholeMatch("slack-webhook", func(string) bool { return true }),
	},
	tokenRule("stripe-key", []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_", "whsec_"},
		`^(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{20,})`, 1024, mixedToken),
	tokenRule("google-api-key", []string{"AIza"}, `^AIza[0-9A-Za-z_-]{35,}`, 1024, func(string) bool { return true }),
	{
		name: "aws-access-key", anchors: []string{"AKIA", "ASIA"}, fwd: 64, inside: isTokenByte,
		re: lazyRegexp(`^(?:AKIA|ASIA)[A-Z0-9]{16}`),
		accept: func(s string, m []int) (finding, bool) {
			if m[1] < len(s) && isAlnum(s[m[1]]) {
				return finding{}, false
			}
			return finding{m[0], m[1], marker("aws-access-key")}, true
		},
	},
	tokenRule("jwt", []string{"eyJ"}, `^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`, 32<<10, func(string) bool { return true }),
	{
		name: "bearer-token", anchors: []string{"bearer"}, fold: true, fwd: 4096, inside: isAlnum,
		re:     lazyRegexp(`(?i)^bearer[ \t]+([A-Za-z0-9._~+/-]+=*)`),
		accept: credentialGroup("bearer-token", 16),
	},
	{
		name: "authorization", anchors: []string{"authorization"}, fold: true, fwd: 4096, inside: isAlnum,
		re:     lazyRegexp(`(?i)^authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:basic|token|digest|apikey)[ \t]+)?([A-Za-z0-9._~+/-]+=*)`),
		accept: credentialGroup("credential", 8),
	},
	{
		name: "url-password", anchors: []string{"://"}, back: 40, startByte: isSchemeByte, fwd: 1024,
		re:     lazyRegexp(`^[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@\[\]'"<>]*:([^\s/?#@'"<>\[\]]+)@`),
		accept: urlPassword,
	},
	{name: "command-line", scan: scanCommands},
	keyedRule("env", true, envKeyOK, envAssignment),
	keyedRule("assignment", false, assignKeyOK, codeAssignment),
}

func init() {
	for i := range rules {
		if rules[i].fold {
			rules[i].anchors = caseVariants(rules[i].anchors)
		}
	}
}

// tokenRule builds a rule for a token with a fixed literal prefix that must
// start at a token boundary. A prefix with '_' or '-' cannot occur inside
// standard base64, so a '/' or '+' may precede it (https://ghp_…@github.com);
// an all-alphanumeric prefix (AIza, eyJ) must not follow any base64 byte, or
// long base64 blobs such as inline images would produce false matches.
func tokenRule(kind string, anchors []string, expr string, fwd int, valid func(string) bool) rule {
	inside := isTokenByte
	if strings.ContainsAny(anchors[0], "_-") {
		inside = func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }
	}
	return rule{
		name: kind, anchors: anchors, fwd: fwd, inside: inside,
		re:     lazyRegexp(expr),
		accept: wholeMatch(kind, valid),
	}
}

// wholeMatch replaces the whole match when it passes valid.
func wholeMatch(kind string, valid func(string) bool) func(string, []int) (finding, bool) {
	return func(s string, m []int) (finding, bool) {
		if !valid(s[m[0]:m[1]]) {
			return finding{}, false
		}
		return finding{m[0], m[1], marker(kind)}, true
	}
}

// credentialGroup replaces submatch 1, a header credential, when it is at
// least minLen long and looks random rather than like a word.
func credentialGroup(kind string, minLen int) func(string, []int) (finding, bool) {
	return func(s string, m []int) (finding, bool) {
		v := s[m[2]:m[3]]
		if len(v) < minLen || !mixedToken(v) {
			return finding{}, false
		}
		return finding{m[2], m[3], marker(kind)}, true
	}
}

// urlPassword replaces the password of user:password@host in a URL, leaving
// the scheme, user and host readable.
func urlPassword(s string, m []int) (finding, bool) {
	v := s[m[2]:m[3]]
	if isReference(v) || isMask(v) || (len(v) <= 5 && allDigits(v)) {
		return finding{}, false
	}
	return finding{m[2], m[3], marker("url-password")}, true
}
