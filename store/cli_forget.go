package store

import (
	"context"
	"errors"
	"strings"
)

// PurgeDerived removes text that other tables derived from forgotten rows:
// the facts consolidation kept for forgotten episodes, and entity names no
// remaining belief uses. ForgetBelief and ForgetEpisode purge the rows
// themselves; `credence forget` calls this afterwards and then Purge, so no
// copy of the forgotten text is left in any table, FTS segment, free page
// or WAL frame. It returns how many rows it changed.
func (db *DB) PurgeDerived(ctx context.Context) (int, error) {
	changed := 0
	err := db.Write(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, `UPDATE consolidated_episodes SET facts = '[]'
			WHERE facts <> '[]' AND episode_id IN (SELECT id FROM episodes WHERE forgotten_at IS NOT NULL)`)
		if err != nil {
			return wrap("purge consolidated facts", err)
		}
		n, _ := res.RowsAffected()
		changed += int(n)

		used := map[string]bool{}
		rows, err := tx.Query(ctx, `SELECT subject, object FROM beliefs WHERE status <> 'forgotten'`)
		if err != nil {
			return wrap("read belief entities", err)
		}
		for rows.Next() {
			var s, o string
			if err := rows.Scan(&s, &o); err != nil {
				rows.Close()
				return wrap("read belief entities", err)
			}
			used[NormalizeEntity(s)], used[NormalizeEntity(o)] = true, true
		}
		if err := rows.Close(); err != nil {
			return wrap("read belief entities", err)
		}
		rows, err = tx.Query(ctx, `SELECT name FROM entities`)
		if err != nil {
			return wrap("read entities", err)
		}
		var stale []string
		for rows.Next() {
			var name string
			if err := rows.Scan(&name); err != nil {
				rows.Close()
				return wrap("read entities", err)
			}
			if !used[NormalizeEntity(name)] {
				stale = append(stale, name)
			}
		}
		if err := rows.Close(); err != nil {
			return wrap("read entities", err)
		}
		for _, chunk := range chunks(stale, 200) {
			res, err := tx.Exec(ctx, `DELETE FROM entities WHERE name IN (`+placeholders(len(chunk))+`)`, anySlice(chunk)...)
			if err != nil {
				return wrap("delete entities", err)
			}
			n, _ := res.RowsAffected()
			changed += int(n)
		}
		return nil
	})
	return changed, err
}

// EpisodesContaining returns the IDs of episodes, forgotten ones excluded,
// whose content contains text (case-insensitively) or is contained in it,
// limited to one session when session is set. `credence forget
// --with-evidence` uses it because a prompt is stored twice: on its own and
// inside the exchange that answers it.
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

// EvidenceEpisodes returns the episodes behind a belief's evidence that
// this machine holds, plus the other copies of their text in the same
// session (a prompt is stored on its own and again inside its exchange), so
// forgetting them all leaves none of the belief's source text.
func (db *DB) EvidenceEpisodes(ctx context.Context, beliefID string) ([]string, error) {
	evs, err := db.Evidence(ctx, beliefID)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	add := func(id string) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, ev := range evs {
		if ev.EpisodeID == "" || seen[ev.EpisodeID] {
			continue
		}
		e, err := db.Episode(ctx, ev.EpisodeID)
		if errors.Is(err, ErrNotFound) {
			continue // evidence from an episode this machine never had
		}
		if err != nil {
			return nil, err
		}
		add(e.ID)
		if e.Forgotten {
			continue
		}
		copies, err := db.EpisodesContaining(ctx, promptOf(e), e.SessionID)
		if err != nil {
			return nil, err
		}
		for _, c := range copies {
			add(c)
		}
	}
	return out, nil
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
