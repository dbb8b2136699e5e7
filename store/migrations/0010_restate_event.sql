-- Belief events of kind 'restate': a belief's statement rendered again from
-- its triple (issue 14), recorded in the log like any belief change so that
-- rebuild and sync fold it the same way everywhere.
--
-- SQLite cannot alter a CHECK constraint, so the table is rebuilt with the
-- new kind allowed. seq (the push cursor of sync) and every other column
-- are copied as they are; the indexes of 0001 and 0006 are made again.

CREATE TABLE belief_events_new (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE CHECK (id LIKE 'be\_%' ESCAPE '\'),
    belief_id   TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('create', 'reinforce', 'contradict', 'partial', 'revise', 'split',
                'merge', 'archive', 'supersede', 'reactivate', 'reject', 'pin', 'unpin', 'forget', 'restate')),
    evidence_id TEXT,
    payload     TEXT NOT NULL DEFAULT '{}',
    turn        INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    hlc         INTEGER NOT NULL,
    origin      TEXT NOT NULL
);
INSERT INTO belief_events_new(seq, id, belief_id, kind, evidence_id, payload, turn, created_at, hlc, origin)
    SELECT seq, id, belief_id, kind, evidence_id, payload, turn, created_at, hlc, origin FROM belief_events;
DROP TABLE belief_events;
ALTER TABLE belief_events_new RENAME TO belief_events;
CREATE INDEX IF NOT EXISTS belief_events_belief ON belief_events(belief_id, hlc, id);
CREATE INDEX IF NOT EXISTS belief_events_origin_hlc ON belief_events(origin, hlc);
CREATE INDEX IF NOT EXISTS belief_events_kind_origin ON belief_events(kind, origin);
