package syncer

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// ErrDisabled reports that no remote is configured.
var ErrDisabled = errors.New("sync is off: set sync.url in the config file or CREDENCE_SYNC_URL")

// scrubber removes the auth token, and any URL that carries it, from text
// before it reaches an error or a log line. go-libsql puts the URL it was
// given into some of its errors, and url.Parse quotes the whole URL.
type scrubber struct{ secrets []string }

func newScrubber(rawURL, token string) scrubber {
	var s []string
	add := func(v string) {
		if len(v) >= 4 {
			s = append(s, v)
		}
	}
	if token != "" {
		add(token)
		add(url.QueryEscape(token))
		add(url.PathEscape(token))
	}
	u, err := url.Parse(rawURL)
	switch {
	case err != nil:
		// Unparsable: hide the whole URL and whatever precedes an '@'.
		add(rawURL)
		if _, rest, ok := strings.Cut(rawURL, "://"); ok {
			if user, _, ok := strings.Cut(rest, "@"); ok {
				add(user)
			}
		}
	default:
		if u.User != nil {
			if p, ok := u.User.Password(); ok {
				add(p)
				add(url.QueryEscape(p))
			}
			add(u.User.String())
		}
		for _, vs := range u.Query() {
			for _, v := range vs {
				add(v)
				add(url.QueryEscape(v))
			}
		}
	}
	// Longest first, so a token inside a longer secret is not cut in half.
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && len(s[j]) > len(s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return scrubber{secrets: s}
}

func (s scrubber) text(msg string) string {
	for _, v := range s.secrets {
		msg = strings.ReplaceAll(msg, v, "[redacted]")
	}
	return msg
}

// err returns err with every secret removed from its message. The result
// answers errors.Is for the original chain but does not unwrap to it, so no
// caller can print the unscrubbed message by accident.
func (s scrubber) err(err error) error {
	if err == nil {
		return nil
	}
	return &scrubbedError{msg: s.text(err.Error()), cause: err, retryAfter: RetryAfter(err)}
}

type scrubbedError struct {
	msg        string
	cause      error
	retryAfter time.Duration
}

func (e *scrubbedError) Error() string { return e.msg }

// RetryAfter passes on how long the remote asked to be left alone.
func (e *scrubbedError) RetryAfter() time.Duration { return e.retryAfter }

// Is lets errors.Is see sentinels (context.Canceled, ErrDisabled) through
// the scrubbed wrapper without exposing the original text.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.cause, target) }

// RedactURL returns the remote's address as it may be shown: scheme, host
// and path, without credentials or query parameters. An unparsable URL is
// shown as its scheme only.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		scheme, _, _ := strings.Cut(raw, ":")
		if len(scheme) > 10 {
			scheme = "?"
		}
		return scheme + ":[invalid url]"
	}
	if u.Scheme == "file" {
		p := u.Path
		if p == "" {
			p = u.Opaque
		}
		return "file:" + p
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

// remoteBase returns the HTTP address of a remote URL: libsql:// and
// wss:// are served over https, ws:// over http. It returns nil for a
// file: URL.
func remoteBase(raw string) (*url.URL, error) {
	dsn, err := driverDSN(raw, "")
	if err != nil || strings.HasPrefix(dsn, "file:") {
		return nil, err
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "libsql" {
		u.Scheme = "https"
	}
	u.RawQuery, u.Fragment, u.User = "", "", nil
	return u, nil
}

// driverDSN turns the configured URL and token into what go-libsql opens:
// remote URLs carry the token as the authToken query parameter, which the
// driver strips from the URL before it sends requests or reports errors.
// ws:// and wss:// (accepted by the config, used by other libSQL clients)
// become http:// and https://, which sqld serves on the same port.
func driverDSN(raw, token string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("parse sync url %s: not a valid URL", RedactURL(raw))
	}
	switch u.Scheme {
	case "file":
		return raw, nil
	case "libsql", "https", "http":
	case "wss":
		u.Scheme = "https"
	case "ws":
		u.Scheme = "http"
	default:
		return "", fmt.Errorf("sync url %s: scheme %q is not libsql, https, http or file", RedactURL(raw), u.Scheme)
	}
	if u.Host == "" {
		return "", fmt.Errorf("sync url %s: no host", RedactURL(raw))
	}
	if token != "" {
		q := u.Query()
		q.Set("authToken", token)
		u.RawQuery = q.Encode()
	}
	return u.String(), nil
}
