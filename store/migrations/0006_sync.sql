-- Sync bookkeeping. Push cursors are local sequence numbers: episodes,
-- evidence and belief events have an INTEGER PRIMARY KEY seq, but tombstones
-- are keyed by target_id, and the implicit rowid of such a table may be
-- renumbered by VACUUM, which would make a push skip or repeat rows. Give
-- tombstones a stable seq, assigned after insert in the same statement.

ALTER TABLE tombstones ADD COLUMN seq INTEGER;
UPDATE tombstones SET seq = rowid WHERE seq IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS tombstones_seq ON tombstones(seq);
CREATE TRIGGER IF NOT EXISTS tombstones_seq_ai AFTER INSERT ON tombstones WHEN new.seq IS NULL BEGIN
    UPDATE tombstones SET seq = (SELECT coalesce(max(seq), 0) + 1 FROM tombstones) WHERE target_id = new.target_id;
END;

-- Merge detection after every pull reads the create event of each active
-- belief and the merge events sync derived.
CREATE INDEX IF NOT EXISTS belief_events_kind_origin ON belief_events(kind, origin);

-- Refolding a belief after a pull rewrites its row with the same text; the
-- full-text trigger fired on every such write (an upsert "updates" the text
-- columns even when they are unchanged), deleting and re-adding the same
-- tokens with secure-delete on. Fire it only when the text changes.
DROP TRIGGER IF EXISTS beliefs_au;
CREATE TRIGGER IF NOT EXISTS beliefs_au AFTER UPDATE OF statement, subject, object ON beliefs
WHEN old.statement IS NOT new.statement OR old.subject IS NOT new.subject OR old.object IS NOT new.object BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, statement, subject, object)
    VALUES ('delete', old.seq, old.statement, old.subject, old.object);
    INSERT INTO beliefs_fts(rowid, statement, subject, object) VALUES (new.seq, new.statement, new.subject, new.object);
END;
