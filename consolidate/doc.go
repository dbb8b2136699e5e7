// Package consolidate turns this machine's episodes into beliefs: the
// pipeline of DESIGN §5, steps 1–4, behind one Consolidator with two modes.
//
//  1. Extract, per new episode: facts and guidelines (a correction or
//     change is read with the session's earlier words and the believed
//     values of single-valued slots, so "actually it's John" corrects the
//     name, then again with the values of the slots its facts fill — a
//     moved meeting, a named person's slot under a fuller subject), each
//     judged against the related beliefs (predict-calibrate: new,
//     reinforce or invalidate), with the episode's surprise (how badly
//     existing beliefs predicted it);
//     ≥ 0.85 gets a deeper extraction, ≥ 0.90 an explanation.
//  2. Cluster extracted episodes by embedding; clusters of at least three
//     are synthesized into a candidate belief.
//  3. Match each candidate against active beliefs: reinforce above the
//     reinforce threshold, classify the top five in the related band,
//     otherwise create it.
//  4. Lifecycle gates (revise, split, merge one pair, archive), decay, and
//     promotion through a Promoter.
//
// Offline mode (no LLM configured) uses package extract, medoid synthesis
// and rule-based classification; LLM mode asks a Model (package llm) and
// falls back to offline mode for any item whose call fails. A remote
// embedder or LLM that does not answer is left alone until its next try
// (endpoint.go: backoff with jitter) while the offline embedder and
// extractor stand in, so no endpoint can stop a cycle. An episode's
// evidence and its consolidated_episodes record are written in one
// transaction, so a cycle that stops half way — budget, signal, crash —
// never applies an episode twice and the next cycle resumes after it.
// Only episodes whose origin is this machine are consolidated: other
// machines' episodes arrive by sync with the evidence their agent derived.
//
// consolidate imports store, belief, embed, extract, ids, llm (for the
// Model's types) and gofrs/flock (the cycle lock). It must not import the
// agent, the hooks, the CLI, sync, promote or markdown: promotion is plugged
// in through the Promoter interface, the agent supplies the rest.
package consolidate
