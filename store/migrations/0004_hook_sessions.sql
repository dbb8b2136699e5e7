-- Hook bookkeeping, local to this machine (never synced): one row per
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
