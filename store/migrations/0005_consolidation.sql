-- Consolidation bookkeeping, local to this machine (never synced): which of
-- this machine's episodes the agent has consolidated, the facts it read from
-- each (so clusters can be synthesized later without reading them again),
-- and one row per consolidation cycle with its stats and the LLM tokens it
-- used. An episode's row is written in the same transaction as the evidence
-- derived from it, so a cycle that stops half way never applies an episode
-- twice. Only evidence and belief events cross machines.

CREATE TABLE IF NOT EXISTS consolidated_episodes (
    episode_id TEXT PRIMARY KEY,
    seq        INTEGER NOT NULL,
    -- pooled: extracted, waiting to join a cluster; clustered: consumed by a
    -- synthesized cluster; retired: left the pool without one.
    state      TEXT NOT NULL CHECK (state IN ('pooled', 'clustered', 'retired')),
    mode       TEXT NOT NULL CHECK (mode IN ('offline', 'llm')),
    facts      TEXT NOT NULL DEFAULT '[]',
    surprise   REAL NOT NULL DEFAULT 0,
    cycle_id   TEXT NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS consolidated_episodes_state ON consolidated_episodes(state, seq);

CREATE TABLE IF NOT EXISTS consolidation_cycles (
    id                TEXT PRIMARY KEY,
    trigger           TEXT NOT NULL DEFAULT '',
    mode              TEXT NOT NULL DEFAULT 'offline',
    status            TEXT NOT NULL CHECK (status IN ('running', 'done', 'checkpointed', 'failed')),
    started_at        INTEGER NOT NULL,
    finished_at       INTEGER,
    episodes          INTEGER NOT NULL DEFAULT 0,
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    stats             TEXT NOT NULL DEFAULT '{}',
    error             TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS consolidation_cycles_started ON consolidation_cycles(started_at);
