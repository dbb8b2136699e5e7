package store

import "context"

// Purge makes deleted text unrecoverable from the database files: it merges
// each FTS5 index into one segment ('optimize'), which drops the tokens of
// deleted rows, lets the secure_delete pragma zero the pages the old
// segments held, and checkpoints the WAL, truncating it.
func (db *DB) Purge(ctx context.Context) error {
	for _, q := range []string{
		`INSERT INTO episodes_fts(episodes_fts) VALUES ('optimize')`,
		`INSERT INTO beliefs_fts(beliefs_fts) VALUES ('optimize')`,
	} {
		if _, err := db.sql.ExecContext(ctx, q); err != nil {
			return wrap("purge", err)
		}
	}
	return db.Checkpoint(ctx)
}

// Checkpoint copies the WAL into the database file and truncates it.
func (db *DB) Checkpoint(ctx context.Context) error {
	rows, err := db.sql.QueryContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	if err != nil {
		return wrap("checkpoint", err)
	}
	return rows.Close()
}

// PurgeDerived removes text that other tables derived from forgotten rows:
// the facts consolidation kept for forgotten episodes, and entity names no
// remaining belief uses. Forget calls it, and sync after applying
// tombstones, before Purge, so no copy of the forgotten text is left in any
// table, FTS segment, free page or WAL frame. It returns how many rows it
// changed.
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
