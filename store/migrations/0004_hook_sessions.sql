-- Hook and recall bookkeeping, local to this machine (never synced): one row per
-- Claude Code session the hooks have seen, with how far its transcript has
-- been flushed into episodes and the prompt episode of its open turn, so the
-- Stop hook can pair the reply with the prompt and SessionEnd / PreCompact
-- resume where the last flush stopped. beliefs_updated lets SessionStart
-- find what changed since the previous session without scanning beliefs.

CREATE TABLE IF NOT EXISTS hook_sessions (
    session_id        TEXT PRIMARY KEY,
    project_path      TEXT NOT NULL DEFAULT '',
    transcript_path   TEXT NOT NULL DEFAULT '',
    transcript_offset INTEGER NOT NULL DEFAULT 0,
    last_prompt_id    TEXT NOT NULL DEFAULT '',
    started_at        INTEGER NOT NULL,
    last_seen_at      INTEGER NOT NULL,
    ended_at          INTEGER
);
CREATE INDEX IF NOT EXISTS hook_sessions_project ON hook_sessions(project_path, last_seen_at);
CREATE INDEX IF NOT EXISTS beliefs_updated ON beliefs(updated_at);
CREATE INDEX IF NOT EXISTS episodes_session_kind ON episodes(session_id, kind);

-- Sign sketches of the stored vectors, packed many to a row, so recall can
-- scan a project's vectors in a few reads instead of one row per vector
-- (libSQL's DiskANN search costs more than a whole prompt's budget). It is
-- a derived cache of the vec_<space>_* tables: recall.SyncSketches appends
-- what is new (tracked per space and kind in meta), and deleting its rows
-- only makes the next sync rebuild them.
CREATE TABLE IF NOT EXISTS recall_sketches (
    space   TEXT NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('episodes', 'beliefs')),
    project TEXT NOT NULL,
    chunk   INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    ids     BLOB NOT NULL,
    signs   BLOB NOT NULL,
    PRIMARY KEY (space, kind, project, chunk)
);

-- SessionStart looks for contested groups among beliefs with exclusive
-- predicates; without this it scans every active belief.
CREATE INDEX IF NOT EXISTS beliefs_predicate ON beliefs(predicate, status);
