package ids

import (
	"crypto/rand"
	"strings"
	"sync"
	"time"

	"github.com/oklog/ulid/v2"
)

// Prefixes of the row kinds that carry IDs.
const (
	Episode     = "ep_"
	Belief      = "bl_"
	Evidence    = "ev_"
	BeliefEvent = "be_"
	Machine     = "mc_"
)

var (
	entropyMu sync.Mutex
	entropy   = ulid.Monotonic(rand.Reader, 0)
)

// New returns prefix followed by a new ULID for the current time.
func New(prefix string) string { return NewAt(prefix, time.Now()) }

// NewAt returns prefix followed by a new ULID for time t. IDs made in the
// same millisecond by one process are strictly increasing.
func NewAt(prefix string, t time.Time) string {
	entropyMu.Lock()
	id := ulid.MustNew(ulid.Timestamp(t), entropy)
	entropyMu.Unlock()
	return prefix + id.String()
}

// Valid reports whether s is prefix followed by a well-formed ULID.
func Valid(prefix, s string) bool {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return false
	}
	_, err := ulid.ParseStrict(rest)
	return err == nil
}

// Short returns the form of an ID shown to people: the prefix and the first
// ten characters of the ULID (its millisecond timestamp), e.g. "bl_01JC4Z8Q2M".
func Short(id string) string {
	i := strings.IndexByte(id, '_')
	if i < 0 || len(id) < i+1+10 {
		return id
	}
	return id[:i+1+10] + "…"
}
