package card

import "github.com/credence-mem/credence/store"

// Remembered is a belief that `remember` or memory_save created or
// reinforced, as shown, with the beliefs its statement contradicted.
type Remembered struct {
	ID           string   `json:"id"`
	Statement    string   `json:"statement"`
	Created      bool     `json:"created"`
	Confidence   float64  `json:"confidence"`
	Contradicted []string `json:"contradicted,omitempty"`
}

// RememberedOf returns the beliefs Remember reported, as shown (nil for
// none).
func RememberedOf(rs []store.RememberedOne) []Remembered {
	if rs == nil {
		return nil
	}
	out := make([]Remembered, len(rs))
	for i, r := range rs {
		out[i] = Remembered{ID: r.ID, Statement: r.Statement, Created: r.Created, Confidence: r.Confidence,
			Contradicted: r.Contradicted}
	}
	return out
}
