package store

import (
	"context"
	"errors"
	"strings"
	"unicode"

	"github.com/credence-mem/credence/belief"
)

// Which episodes go with a forgotten belief.
//
// A belief's words live in episodes: its sources (the episodes its evidence
// names), the other copies of their text (a prompt is stored on its own and
// again inside the exchange that answers it), and any other episode that
// says the same thing. Forgetting a belief with ForgetSources takes
//
//   - each source no other belief that is not forgotten rests on, with the
//     copies of its text in the same session;
//   - each source other beliefs rest on too, when its text mentions the
//     belief (statesBelief, loosely), with its copies;
//   - each other episode whose text states the belief (statesBelief,
//     strictly), in the belief's project (any project for a global belief).
//
// ForgetEvidence takes every source, shared or not, with its copies, and
// the episodes that state the belief. KeepEpisodes takes none.

// episodePlan is what forgetting one belief does to episodes.
type episodePlan struct {
	forget []string // to forget, in the order found
	kept   []string // sources left in place
}

// planEpisodes decides which episodes forgetting b takes along. It must
// run before b's text is blanked.
func (db *DB) planEpisodes(ctx context.Context, b Belief, scope ForgetScope) (episodePlan, error) {
	var plan episodePlan
	sources, err := db.sourceEpisodes(ctx, b.ID)
	if err != nil {
		return plan, err
	}
	if scope == KeepEpisodes {
		for _, e := range sources {
			plan.kept = append(plan.kept, e.ID)
		}
		return plan, nil
	}
	shared, err := db.sharedEpisodes(ctx, b.ID, sources)
	if err != nil {
		return plan, err
	}
	taken := map[string]bool{}
	take := func(id string) {
		if !taken[id] {
			taken[id] = true
			plan.forget = append(plan.forget, id)
		}
	}
	var kept []string
	for _, e := range sources {
		if shared[e.ID] && scope != ForgetEvidence && !statesBelief(e.Content+"\n"+e.Summary, b.State, false) {
			kept = append(kept, e.ID)
			continue
		}
		take(e.ID)
		copies, err := db.EpisodesContaining(ctx, promptOf(e), e.SessionID)
		if err != nil {
			return plan, err
		}
		for _, c := range copies {
			take(c)
		}
	}
	stating, err := db.episodesStating(ctx, b)
	if err != nil {
		return plan, err
	}
	for _, id := range stating {
		take(id)
	}
	for _, id := range kept {
		if !taken[id] { // a kept source can be the copy of a taken one
			plan.kept = append(plan.kept, id)
		}
	}
	return plan, nil
}

// sourceEpisodes returns the episodes behind a belief's evidence that this
// machine holds and has not forgotten, oldest evidence first.
func (db *DB) sourceEpisodes(ctx context.Context, beliefID string) ([]Episode, error) {
	evs, err := db.Evidence(ctx, beliefID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []Episode
	for _, ev := range evs {
		if ev.EpisodeID == "" || seen[ev.EpisodeID] {
			continue
		}
		seen[ev.EpisodeID] = true
		e, err := db.Episode(ctx, ev.EpisodeID)
		if errors.Is(err, ErrNotFound) {
			continue // evidence from an episode this machine never had
		}
		if err != nil {
			return nil, err
		}
		if !e.Forgotten {
			out = append(out, e)
		}
	}
	return out, nil
}

// sharedEpisodes returns which of episodes are evidence for a belief other
// than beliefID that is not forgotten.
func (db *DB) sharedEpisodes(ctx context.Context, beliefID string, episodes []Episode) (map[string]bool, error) {
	out := map[string]bool{}
	var ids []string
	for _, e := range episodes {
		ids = append(ids, e.ID)
	}
	for _, chunk := range chunks(ids, 200) {
		rows, err := db.sql.QueryContext(ctx, `SELECT DISTINCT ev.episode_id FROM evidence ev JOIN beliefs b ON b.id = ev.belief_id
			WHERE ev.episode_id IN (`+placeholders(len(chunk))+`) AND ev.belief_id <> ? AND b.status <> ?`,
			append(anySlice(chunk), beliefID, string(belief.Forgotten))...)
		if err != nil {
			return nil, wrap("find shared evidence", err)
		}
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, wrap("find shared evidence", err)
			}
			out[id] = true
		}
		if err := rows.Close(); err != nil {
			return nil, wrap("find shared evidence", err)
		}
	}
	return out, nil
}

// episodesStating returns the episodes, forgotten ones excluded, whose text
// states b (strictly), in b's project or, for a global belief, anywhere.
// The full-text index narrows the search to episodes with every word of
// b's object; statesBelief decides.
func (db *DB) episodesStating(ctx context.Context, b Belief) ([]string, error) {
	key := words(b.Object)
	if len(key) == 0 {
		key = words(b.Statement)
	}
	if len(key) == 0 {
		return nil, nil
	}
	terms := make([]string, len(key))
	for i, w := range key {
		terms[i] = `"` + w + `"`
	}
	q := `SELECT e.id, CAST('.' || e.content AS BLOB), CAST('.' || e.summary AS BLOB) FROM episodes_fts JOIN episodes e ON e.seq = episodes_fts.rowid
		WHERE episodes_fts MATCH ? AND e.forgotten_at IS NULL`
	args := []any{strings.Join(terms, " AND ")}
	if b.Scope == belief.ScopeProject && b.ProjectPath != "" {
		q += ` AND e.project_path = ?`
		args = append(args, b.ProjectPath)
	}
	rows, err := db.sql.QueryContext(ctx, q+` ORDER BY e.seq`, args...)
	if err != nil {
		return nil, wrap("find episodes stating a belief", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id, content, summary string
		if err := rows.Scan(&id, rawText{&content}, rawText{&summary}); err != nil {
			return nil, wrap("find episodes stating a belief", err)
		}
		if statesBelief(content+"\n"+summary, b.State, true) {
			out = append(out, id)
		}
	}
	return out, wrap("find episodes stating a belief", rows.Err())
}

// statesBelief reports whether text states the belief s. It does when it
// contains the belief's statement, or when one of its sentences holds
//
//   - every word of the belief's object,
//   - its subject: the subject's own words, or for the user and the
//     project the words people use for them (I, me, my…; we, us, our…);
//     a guideline's subject, the assistant, need not be named, since
//     instructions rarely name whom they address,
//   - and, when strict, a word from its predicate ("deploy" for
//     deploys_with, "prefer" for prefers) if the predicate has one.
//
// Words match whole, case-insensitively, a plural "s" aside. Loose is for
// an episode the belief was learned from, where naming the object and the
// subject is enough; strict is for any other episode, where "I ran pnpm
// install" must not count as stating "User prefers pnpm".
func statesBelief(text string, s belief.State, strict bool) bool {
	if st := strings.TrimSpace(s.Statement); len(st) >= 8 && strings.Contains(strings.ToLower(text), strings.ToLower(st)) {
		return true
	}
	object := words(s.Object)
	if len(object) == 0 {
		return false
	}
	subject := subjectWords(s.Subject)
	var cues []string
	if strict {
		cues = predicateCues(s.Predicate)
	}
	for _, sentence := range sentences(text) {
		have := map[string]bool{}
		for _, w := range words(sentence) {
			have[w] = true
		}
		if containsAll(have, object) && (subject == nil || containsAny(have, subject)) && hasCue(have, cues) {
			return true
		}
	}
	return false
}

// sentences splits text at line breaks and at '.', '!' or '?' followed by
// a space or the end, so "node.js" stays one word.
func sentences(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := c == '\n' || ((c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'))
		if end {
			out = append(out, text[start:i])
			start = i + 1
		}
	}
	return append(out, text[start:])
}

// speakerWords are the words that name the user and the project in what
// people write; subjects not listed are named by their own words.
var speakerWords = map[string][]string{
	"user":    {"i", "me", "my", "mine", "myself"},
	"project": {"we", "us", "our", "ours", "ourselves"},
}

// subjectWords returns the words any one of which names subject in a
// sentence, or nil when no word is needed.
func subjectWords(subject string) []string {
	subject = NormalizeEntity(subject)
	if subject == "assistant" || subject == "" {
		return nil
	}
	if ws, ok := speakerWords[subject]; ok {
		return ws
	}
	return []string{strings.Join(words(subject), " ")}
}

// predicateCues returns the stems of a predicate's content words:
// "deploys_with" gives "deploy", "not_likes" gives "like".
func predicateCues(predicate string) []string {
	var out []string
	for _, w := range strings.Split(strings.ToLower(predicate), "_") {
		if predicateFiller[w] {
			continue
		}
		for _, suffix := range []string{"ing", "ed", "es", "s"} {
			if stem, ok := strings.CutSuffix(w, suffix); ok && len(stem) >= 3 {
				w = stem
				break
			}
		}
		if len(w) >= 3 {
			out = append(out, w)
		}
	}
	return out
}

var predicateFiller = map[string]bool{"is": true, "in": true, "at": true, "of": true, "on": true, "to": true,
	"with": true, "for": true, "from": true, "by": true, "as": true, "not": true, "should": true, "when": true,
	"be": true, "has": true, "have": true, "the": true, "a": true, "an": true, "and": true, "or": true}

// words returns text's words, lower-cased, a trailing plural "s" dropped.
func words(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if len(f) > 3 && strings.HasSuffix(f, "s") && !strings.HasSuffix(f, "ss") {
			f = f[:len(f)-1]
		}
		out = append(out, f)
	}
	return out
}

func containsAll(have map[string]bool, want []string) bool {
	for _, w := range want {
		if !have[w] {
			return false
		}
	}
	return true
}

// containsAny reports whether have holds one of want; an entry of several
// words (a subject like "alice smith") needs all of them.
func containsAny(have map[string]bool, want []string) bool {
	for _, w := range want {
		if containsAll(have, strings.Fields(w)) {
			return true
		}
	}
	return false
}

// hasCue reports whether a word in have starts with one of cues (true when
// there are none).
func hasCue(have map[string]bool, cues []string) bool {
	if len(cues) == 0 {
		return true
	}
	for w := range have {
		for _, c := range cues {
			if strings.HasPrefix(w, c) {
				return true
			}
		}
	}
	return false
}

// EpisodesContaining returns the IDs of episodes, forgotten ones excluded,
// whose content contains text (case-insensitively) or is contained in it,
// limited to one session when session is set. Forgetting uses it because a
// prompt is stored twice: on its own and inside the exchange that answers
// it.
func (db *DB) EpisodesContaining(ctx context.Context, text, session string) ([]string, error) {
	text = strings.TrimSpace(validUTF8(text))
	if len(text) < 8 {
		return nil, nil // too short to identify a copy; only the episode itself is forgotten
	}
	q := `SELECT id FROM episodes WHERE forgotten_at IS NULL
		AND (instr(lower(content), lower(?)) > 0 OR (length(content) >= 8 AND instr(lower(?), lower(content)) > 0))`
	args := []any{text, text}
	if session != "" {
		q += ` AND session_id = ?`
		args = append(args, validUTF8(session))
	}
	rows, err := db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap("find copies", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, wrap("find copies", err)
		}
		out = append(out, id)
	}
	return out, wrap("find copies", rows.Err())
}

// promptOf returns the part of an episode that other episodes copy: the
// user's prompt of an exchange ("User: …\n\nAssistant: …"), else the whole
// content.
func promptOf(e Episode) string {
	const userTag, assistantTag = "User: ", "\n\nAssistant: "
	text := e.Content
	if rest, ok := strings.CutPrefix(text, userTag); ok && (e.Kind == EpisodeExchange || e.Kind == EpisodeImport) {
		text, _, _ = strings.Cut(rest, assistantTag)
	}
	return text
}
