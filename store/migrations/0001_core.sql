-- The core tables. Episodes, evidence and belief events are append-only logs
-- that cross machines; beliefs are a materialized view of them. Times are
-- Unix milliseconds; hlc columns hold hybrid-logical-clock values.

CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS episodes (
    seq                  INTEGER PRIMARY KEY,
    id                   TEXT NOT NULL UNIQUE CHECK (id LIKE 'ep\_%' ESCAPE '\'),
    session_id           TEXT NOT NULL DEFAULT '',
    project_path         TEXT NOT NULL DEFAULT '',
    scope                TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('global', 'project')),
    kind                 TEXT NOT NULL CHECK (kind IN ('prompt', 'exchange', 'note', 'import')),
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
CREATE INDEX IF NOT EXISTS episodes_project ON episodes(project_path, created_at);
CREATE INDEX IF NOT EXISTS episodes_session ON episodes(session_id);
CREATE INDEX IF NOT EXISTS episodes_origin_hlc ON episodes(origin, hlc);

CREATE TABLE IF NOT EXISTS beliefs (
    seq                 INTEGER PRIMARY KEY,
    id                  TEXT NOT NULL UNIQUE CHECK (id LIKE 'bl\_%' ESCAPE '\'),
    statement           TEXT NOT NULL,
    subject             TEXT NOT NULL DEFAULT '',
    predicate           TEXT NOT NULL DEFAULT '',
    object              TEXT NOT NULL DEFAULT '',
    context             TEXT NOT NULL DEFAULT '',
    timeframe           TEXT NOT NULL DEFAULT '',
    kind                TEXT NOT NULL DEFAULT 'fact' CHECK (kind IN ('fact', 'guideline')),
    scope               TEXT NOT NULL DEFAULT 'project' CHECK (scope IN ('global', 'project')),
    project_path        TEXT NOT NULL DEFAULT '',
    source              TEXT NOT NULL DEFAULT '',
    status              TEXT NOT NULL DEFAULT 'active' CHECK (status IN
                        ('active', 'revised', 'split', 'merged', 'archived', 'superseded', 'rejected', 'forgotten')),
    alpha               REAL NOT NULL,
    beta                REAL NOT NULL,
    counts_at           INTEGER NOT NULL,
    counts_turn         INTEGER NOT NULL DEFAULT 0,
    peak_confidence     REAL NOT NULL DEFAULT 0.5,
    evidence_count      INTEGER NOT NULL DEFAULT 0,
    supports            INTEGER NOT NULL DEFAULT 0,
    contradictions      INTEGER NOT NULL DEFAULT 0,
    partials            INTEGER NOT NULL DEFAULT 0,
    last_reinforced_at  INTEGER,
    valid_at            INTEGER NOT NULL,
    invalid_at          INTEGER,
    parent_belief_id    TEXT,
    merged_into         TEXT,
    pinned              INTEGER NOT NULL DEFAULT 0,
    created_at          INTEGER NOT NULL,
    updated_at          INTEGER NOT NULL,
    last_hlc            INTEGER NOT NULL DEFAULT 0,
    origin              TEXT NOT NULL DEFAULT '',
    -- Local by design: how this machine surfaces and promotes the belief.
    stability           REAL NOT NULL DEFAULT 1,
    last_accessed_at    INTEGER,
    promoted_at         INTEGER,
    demoted_at          INTEGER
);
CREATE INDEX IF NOT EXISTS beliefs_status ON beliefs(status);
CREATE INDEX IF NOT EXISTS beliefs_scope ON beliefs(scope);
CREATE INDEX IF NOT EXISTS beliefs_project ON beliefs(project_path);
CREATE INDEX IF NOT EXISTS beliefs_triple ON beliefs(subject, predicate);
CREATE INDEX IF NOT EXISTS beliefs_promotion ON beliefs(status, promoted_at);

CREATE TABLE IF NOT EXISTS evidence (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE CHECK (id LIKE 'ev\_%' ESCAPE '\'),
    belief_id   TEXT NOT NULL,
    episode_id  TEXT,
    source      TEXT NOT NULL DEFAULT '',
    label       TEXT NOT NULL CHECK (label IN ('SUPPORTS', 'CONTRADICTS', 'PARTIAL', 'IRRELEVANT', 'USER_EDIT', 'MANUAL')),
    support     REAL NOT NULL CHECK (support BETWEEN -1 AND 1),
    reliability REAL NOT NULL CHECK (reliability BETWEEN 0 AND 1),
    note        TEXT NOT NULL DEFAULT '',
    turn        INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    hlc         INTEGER NOT NULL,
    origin      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS evidence_belief ON evidence(belief_id, hlc);
CREATE INDEX IF NOT EXISTS evidence_episode ON evidence(episode_id);
CREATE INDEX IF NOT EXISTS evidence_origin_hlc ON evidence(origin, hlc);

CREATE TABLE IF NOT EXISTS belief_events (
    seq         INTEGER PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE CHECK (id LIKE 'be\_%' ESCAPE '\'),
    belief_id   TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('create', 'reinforce', 'contradict', 'partial', 'revise', 'split',
                'merge', 'archive', 'supersede', 'reactivate', 'reject', 'pin', 'unpin', 'forget')),
    evidence_id TEXT,
    payload     TEXT NOT NULL DEFAULT '{}',
    turn        INTEGER NOT NULL DEFAULT 0,
    created_at  INTEGER NOT NULL,
    hlc         INTEGER NOT NULL,
    origin      TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS belief_events_belief ON belief_events(belief_id, hlc, id);
CREATE INDEX IF NOT EXISTS belief_events_origin_hlc ON belief_events(origin, hlc);
