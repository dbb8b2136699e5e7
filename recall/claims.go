package recall

import (
	"slices"
	"sync"
)

// memo keeps what was read from episodes by episode ID: an episode's text
// never changes, and the same candidates come back prompt after prompt.
// One lives in a Cache for the agent's recalls, one per recall otherwise.
// Safe for concurrent use.
type memo[T any] struct {
	mu sync.Mutex
	m  map[string]T
}

// maxMemoClaims bounds a memo; past it the memo starts over.
const maxMemoClaims = 8192

// get returns what read gives for the episode with the given ID and text,
// reading it only the first time.
func (m *memo[T]) get(id, text string, read func(string) T) T {
	m.mu.Lock()
	v, ok := m.m[id]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = read(text)
	m.mu.Lock()
	if m.m == nil || len(m.m) >= maxMemoClaims {
		m.m = map[string]T{}
	}
	m.m[id] = v
	m.mu.Unlock()
	return v
}

// claimMemo keeps the claims read from episodes: slots.go's claims runs
// the extractor, the costliest CPU work of a recall that needs a slot.
type claimMemo struct{ memo[[]claim] }

// of returns the claims of the episode with the given ID and text.
func (m *claimMemo) of(id, text string) []claim { return m.get(id, text, claims) }

// claimsOf returns the claims of an episode, read once per recall, or
// once per Cache.
func (s *search) claimsOf(id, text string) []claim {
	return slices.DeleteFunc(slices.Clone(s.allClaimsOf(id, text)), func(c claim) bool { return c.open })
}

// openClaimsOf returns the claims of an episode of slots that hold many
// values at once.
func (s *search) openClaimsOf(id, text string) []claim {
	return slices.DeleteFunc(slices.Clone(s.allClaimsOf(id, text)), func(c claim) bool { return !c.open })
}

func (s *search) allClaimsOf(id, text string) []claim {
	if s.memo == nil {
		return claims(text)
	}
	return s.memo.of(id, text)
}
