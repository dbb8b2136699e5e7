package consolidate

import (
	"context"
	"fmt"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/store"
)

// Surprise levels (DESIGN §5, seed 001): at DeepSurprise an episode gets a
// deeper extraction, at ExplainSurprise also an explanation.
const (
	DeepSurprise    = 0.85
	ExplainSurprise = 0.90
)

// noveltySurprise is the surprise of a fact no belief speaks to: nothing
// predicted it, nothing predicted against it.
const noveltySurprise = 0.5

// forecast is what the existing beliefs predicted about an episode's facts.
type forecast struct {
	// surprise is how badly existing beliefs predicted the episode, in
	// [0, 1]: for each fact, 1 − confidence of the belief stating it, or
	// the confidence of the strongest active belief it contradicts,
	// whichever is larger; the episode takes its most surprising fact. An
	// episode with no facts predicts nothing and surprises nobody (0).
	surprise float64
	// worst is the belief whose prediction failed worst, with the fact that
	// broke it; nil when no belief was contradicted.
	worst     *store.Belief
	worstFact fact
	// context lists the related beliefs, for an LLM's predict-calibrate.
	context []store.Belief
}

// predict judges facts against the beliefs r holds, without writing.
func (r *cycleRun) predict(ctx context.Context, rd beliefReader, ep store.Episode, facts []fact) (forecast, error) {
	var fc forecast
	seen := map[string]bool{}
	worstConf := -1.0
	for _, f := range facts {
		group, err := related(ctx, rd, f, ep)
		if err != nil {
			return fc, err
		}
		for _, b := range group {
			if !seen[b.ID] {
				seen[b.ID] = true
				fc.context = append(fc.context, b)
			}
		}
		v, err := r.judgeFact(ctx, f, group, false)
		if err != nil {
			return fc, err
		}
		s := noveltySurprise
		if v.same != nil && v.same.Status == belief.Active {
			s = 1 - r.conf(*v.same)
		}
		for i := range v.contradicted {
			b := v.contradicted[i]
			c := r.conf(b)
			s = max(s, c)
			if c > worstConf {
				worstConf, fc.worst, fc.worstFact = c, &v.contradicted[i], f
			}
		}
		fc.surprise = max(fc.surprise, s)
	}
	return fc, nil
}

// explain is the offline surprise explanation: which belief the episode
// contradicted, how sure we were, and what it said instead.
func (r *cycleRun) explain(fc forecast) string {
	if fc.worst == nil {
		return ""
	}
	return fmt.Sprintf("Contradicted %q (%s, confidence %.2f): the episode says %q.",
		fc.worst.Statement, fc.worst.ID, r.conf(*fc.worst), fc.worstFact.Statement)
}
