package recall

import "sync"

// claimMemo keeps the claims read from episodes (slots.go's claims runs the
// extractor, the costliest CPU work of a recall that needs a slot), by
// episode ID: an episode's text never changes, and the same candidates
// come back prompt after prompt. One lives in a Cache for the agent's
// recalls, one per recall otherwise. Safe for concurrent use.
type claimMemo struct {
	mu sync.Mutex
	m  map[string][]claim
}

// maxMemoClaims bounds a memo; past it the memo starts over.
const maxMemoClaims = 8192

// of returns the claims of the episode with the given ID and text.
func (m *claimMemo) of(id, text string) []claim {
	m.mu.Lock()
	cs, ok := m.m[id]
	m.mu.Unlock()
	if ok {
		return cs
	}
	cs = claims(text)
	m.mu.Lock()
	if m.m == nil || len(m.m) >= maxMemoClaims {
		m.m = map[string][]claim{}
	}
	m.m[id] = cs
	m.mu.Unlock()
	return cs
}

// claimsOf returns the claims of an episode, read once per recall, or
// once per Cache.
func (s *search) claimsOf(id, text string) []claim {
	if s.memo == nil {
		return claims(text)
	}
	return s.memo.of(id, text)
}
