package hookrelay

import (
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"

	"github.com/credence-mem/credence/config/defaults"
	"github.com/credence-mem/credence/internal/rotfile"
)

// frontLog writes the front's log lines to hook.log, in the JSON-lines
// shape the rest of credence writes through log/slog, which the front does
// not link. The front logs only when something is wrong (at the default
// info level a served prompt logs nothing), so the file is opened on the
// first line; when its directory cannot be written, the line goes to the
// hook's fallback log in the system temp directory, so no failure is
// silent. The front only ever logs its own errors: syscalls, paths and the
// agent's reasons, never what stdin holds.
type frontLog struct {
	dir   string // "" means the fallback log
	event string
	f     *rotfile.File
	extra string // attributes the fallback log adds
}

func newFrontLog(logDir, event string) *frontLog { return &frontLog{dir: logDir, event: event} }

// warn logs msg at WARN with err, when there is one.
func (l *frontLog) warn(msg string, err error) {
	if l.f == nil && !l.open() {
		return
	}
	b := make([]byte, 0, 256)
	b = append(b, `{"time":`...)
	b = appendJSONString(b, time.Now().Format(time.RFC3339Nano))
	b = append(b, `,"level":"WARN","msg":`...)
	b = appendJSONString(b, msg)
	b = append(b, `,"component":"hook"`...)
	b = append(b, l.extra...)
	b = append(b, `,"event":`...)
	b = appendJSONString(b, l.event)
	if err != nil {
		b = append(b, `,"err":`...)
		b = appendJSONString(b, err.Error())
	}
	b = append(b, "}\n"...)
	_, _ = l.f.Write(b)
}

func (l *frontLog) open() bool {
	if l.dir != "" && os.MkdirAll(l.dir, 0o700) == nil {
		if f, err := rotfile.Open(filepath.Join(l.dir, "hook.log"), defaults.HookLogMaxBytes); err == nil {
			l.f = f
			return true
		}
	}
	f, err := rotfile.Open(defaults.HookFallbackLog(), defaults.HookLogMaxBytes)
	if err != nil {
		return false
	}
	l.f, l.extra = f, `,"fallback_log":true`
	return true
}

func (l *frontLog) close() {
	if l.f != nil {
		l.f.Close()
	}
}

// appendJSONString appends s as a JSON string; invalid UTF-8 becomes
// U+FFFD, as encoding/json writes it.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c == '\t':
				b = append(b, `\t`...)
			case c < 0x20:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
