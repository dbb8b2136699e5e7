-- What credence last wrote into each MEMORY.md on this machine, so the next
-- read of the file can tell a person's edit from credence's own: a bullet
-- that was written and is gone was deleted by someone, a bullet that was
-- never written was added by someone. Local by design (like promoted_at):
-- the files and their paths belong to this machine and are not synced.
--
-- section holds the section as last confirmed on disk (JSON, with the
-- belief ID behind every bullet). pending holds a section being written
-- right now; while it is set, only bullets in both are taken as written, so
-- a crash between the file write and the confirmation never turns a bullet
-- into a false deletion. hash is the SHA-256 of the whole file right after
-- credence's last write, which the watcher uses to ignore its own events.

CREATE TABLE IF NOT EXISTS memory_sections (
    path       TEXT PRIMARY KEY,
    section    TEXT NOT NULL DEFAULT '',
    pending    TEXT NOT NULL DEFAULT '',
    hash       TEXT NOT NULL DEFAULT '',
    written_at INTEGER NOT NULL DEFAULT 0
);
