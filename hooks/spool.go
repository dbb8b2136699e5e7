package hooks

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/internal/atomicfile"
)

// The spool keeps what a hook could not store in the database: a write
// lock held past the hook's wait, a database that cannot be opened yet, a
// time budget spent before the write. Each event's write is prepared when
// the event arrives (a record: the redacted prompt with its episode ID, or
// the reply of a Stop with the transcript's size at that moment), and
// either stored or written here, so nothing a person said is lost because
// the database was busy. The agent drains the spool as soon as it can,
// and so does the next hook run without one (drain.go); storing a record
// is idempotent, so a record stored twice, or stored while a hook's own
// write also landed, leaves one episode.
//
// The spool is a directory of records, <data_dir>/spool, mode 0700. A
// record is written once (internal/atomicfile: a temp file, fsync, rename,
// fsync of the directory; mode 0600) and removed once stored: nothing in it is ever
// rewritten, so a crash leaves either a whole record or none. Names sort
// by arrival: <unix nanoseconds>-<session hash>-<random>.json, so records
// are stored in the order their events arrived, and a session's pending
// records are found without opening the others.

// spoolVersion is the record format; a record of another version is left
// in place for a credence that knows it.
const spoolVersion = 1

// spoolRecord is one event's write, prepared when the event arrived. Text
// in it is redacted, as it would be in the database.
type spoolRecord struct {
	Version    int    `json:"v"`
	Event      string `json:"event"`
	ReceivedAt int64  `json:"received_at_ns"`
	SessionID  string `json:"session_id,omitempty"`
	Project    string `json:"project,omitempty"`
	Transcript string `json:"transcript,omitempty"`
	// TranscriptSize is the transcript's size when a Stop arrived: the
	// turn's prompt is the last one before it, whatever the file holds
	// by the time the record is stored.
	TranscriptSize int64 `json:"transcript_size,omitempty"`
	// EpisodeID is the prompt episode's ID, fixed at arrival so that the
	// hook's own write and a spooled copy of it are one episode.
	EpisodeID string `json:"episode_id,omitempty"`
	// Content is the prompt (UserPromptSubmit) or the reply (Stop).
	Content string `json:"content,omitempty"`
	// Ended marks a SessionEnd.
	Ended bool `json:"ended,omitempty"`

	name string // the record's file name, once spooled or listed
}

func (r *spoolRecord) received() time.Time { return time.Unix(0, r.ReceivedAt) }

// spoolDir is where records wait: beside the database, in the data
// directory.
func spoolDir(dataDir string) string { return filepath.Join(dataDir, "spool") }

// spoolDir is the spool of the handler's database.
func (h *handler) spoolDir() string { return spoolDir(filepath.Dir(h.cfg.Paths.Database)) }

// writeSpool writes rec to the spool durably and sets its name.
func writeSpool(dir string, rec *spoolRecord) error {
	rec.Version = spoolVersion
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("spool %s: %w", rec.Event, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("spool %s: %w", rec.Event, err)
	}
	var nonce [4]byte
	rand.Read(nonce[:])
	name := fmt.Sprintf("%020d-%s-%s.json", rec.ReceivedAt, sessionTag(rec.SessionID), hex.EncodeToString(nonce[:]))
	if err := atomicfile.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
		return fmt.Errorf("spool %s: %w", rec.Event, err)
	}
	rec.name = name
	return nil
}

// sessionTag is a short hash of a session ID for record names.
func sessionTag(session string) string {
	h := fnv.New32a()
	h.Write([]byte(session))
	return fmt.Sprintf("%08x", h.Sum32())
}

// spooledNames lists the records waiting in dir, oldest first. A missing
// directory holds none.
func spooledNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read spool: %w", err)
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); strings.HasSuffix(n, ".json") && !strings.HasPrefix(n, ".") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names, nil
}

// readSpooled reads one record.
func readSpooled(dir, name string) (*spoolRecord, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	var rec spoolRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fmt.Errorf("spool record %s: %w", name, err)
	}
	rec.name = name
	return &rec, nil
}

// pendingBefore reports whether dir holds a record of session that
// arrived before t (other than skip): a later event of that session waits
// for it, so a Stop never overtakes its own prompt.
func pendingBefore(dir, session string, t int64, skip string) (bool, error) {
	names, err := spooledNames(dir)
	if err != nil || len(names) == 0 {
		return false, err
	}
	tag := sessionTag(session)
	for _, n := range names {
		at, rest, ok := strings.Cut(n, "-")
		ns, perr := strconv.ParseInt(at, 10, 64)
		if !ok || perr != nil || ns >= t {
			break
		}
		if n != skip && strings.HasPrefix(rest, tag+"-") {
			return true, nil
		}
	}
	return false, nil
}

// sweepTemps removes temp files a writer killed mid-write left in dir
// (atomicfile names them after their target, with digits after ".json"),
// once they are older than a minute: a writer still at work is left
// alone.
func sweepTemps(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		i := strings.LastIndex(n, ".json")
		if i < 0 || i+len(".json") == len(n) || strings.Trim(n[i+len(".json"):], "0123456789") != "" {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > time.Minute {
			os.Remove(filepath.Join(dir, n))
		}
	}
}
