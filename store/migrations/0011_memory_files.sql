-- Claude Code's own memory files (issue 15). Each memory file Claude Code
-- keeps in a project's memory directory (~/.claude/projects/<key>/memory/
-- <name>.md, with frontmatter name, description and metadata.type) is
-- stored as an episode of kind 'memory', so the episodes table is rebuilt
-- with that kind allowed: SQLite cannot alter a CHECK constraint. seq (the
-- full-text index's rowid and the push cursor of sync) and every other
-- column are copied as they are; the indexes of 0001 and 0004 and the
-- full-text triggers of 0002 are made again.

CREATE TABLE episodes_new (
    seq                  INTEGER PRIMARY KEY,
    id                   TEXT NOT NULL UNIQUE CHECK (id LIKE 'ep\_%' ESCAPE '\'),
    session_id           TEXT NOT NULL DEFAULT '',
    project_path         TEXT NOT NULL DEFAULT '',
    scope                TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('global', 'project')),
    kind                 TEXT NOT NULL CHECK (kind IN ('prompt', 'exchange', 'note', 'import', 'memory')),
    content              TEXT NOT NULL,
    summary              TEXT NOT NULL DEFAULT '',
    surprise             REAL,
    surprise_explanation TEXT,
    dedup_key            TEXT UNIQUE,
    turn                 INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    hlc                  INTEGER NOT NULL,
    origin               TEXT NOT NULL,
    forgotten_at         INTEGER
);
INSERT INTO episodes_new(seq, id, session_id, project_path, scope, kind, content, summary, surprise,
    surprise_explanation, dedup_key, turn, created_at, hlc, origin, forgotten_at)
    SELECT seq, id, session_id, project_path, scope, kind, content, summary, surprise,
    surprise_explanation, dedup_key, turn, created_at, hlc, origin, forgotten_at FROM episodes;
DROP TABLE episodes;
ALTER TABLE episodes_new RENAME TO episodes;
CREATE INDEX IF NOT EXISTS episodes_project ON episodes(project_path, created_at);
CREATE INDEX IF NOT EXISTS episodes_session ON episodes(session_id);
CREATE INDEX IF NOT EXISTS episodes_origin_hlc ON episodes(origin, hlc);
CREATE INDEX IF NOT EXISTS episodes_session_kind ON episodes(session_id, kind);
CREATE TRIGGER IF NOT EXISTS episodes_ai AFTER INSERT ON episodes BEGIN
    INSERT INTO episodes_fts(rowid, content, summary) VALUES (new.seq, new.content, new.summary);
END;
CREATE TRIGGER IF NOT EXISTS episodes_ad AFTER DELETE ON episodes BEGIN
    INSERT INTO episodes_fts(episodes_fts, rowid, content, summary) VALUES ('delete', old.seq, old.content, old.summary);
END;
CREATE TRIGGER IF NOT EXISTS episodes_au AFTER UPDATE OF content, summary ON episodes BEGIN
    INSERT INTO episodes_fts(episodes_fts, rowid, content, summary) VALUES ('delete', old.seq, old.content, old.summary);
    INSERT INTO episodes_fts(rowid, content, summary) VALUES (new.seq, new.content, new.summary);
END;

-- What credence last read from each memory file on this machine: the
-- file's hash, the episode of that version, who wrote it (model or
-- person), and the claims it gave evidence for (JSON: statement key →
-- belief ID), so an edit only weighs the claims that changed and a deleted
-- file weighs against the claims it made. Local, like memory_sections.
CREATE TABLE IF NOT EXISTS memory_files (
    path       TEXT PRIMARY KEY,
    hash       TEXT NOT NULL DEFAULT '',
    episode_id TEXT NOT NULL DEFAULT '',
    type       TEXT NOT NULL DEFAULT '',
    author     TEXT NOT NULL DEFAULT '',
    claims     TEXT NOT NULL DEFAULT '{}',
    updated_at INTEGER NOT NULL DEFAULT 0,
    deleted_at INTEGER NOT NULL DEFAULT 0
);
