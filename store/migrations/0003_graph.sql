-- Relations (which predicates are exclusive), entities for neighborhood
-- retrieval, tombstones for forgotten rows, and the registry of vector
-- spaces: one pair of vector tables per embedder, so vectors of different
-- embedders (and dimensions) never mix.

CREATE TABLE IF NOT EXISTS relations (
    predicate  TEXT PRIMARY KEY,
    exclusive  INTEGER NOT NULL DEFAULT 0,
    source     TEXT NOT NULL DEFAULT 'builtin',
    created_at INTEGER NOT NULL DEFAULT 0
);
INSERT OR IGNORE INTO relations(predicate, exclusive) VALUES
    ('lives_in', 1), ('located_in', 1), ('name_is', 1), ('age_is', 1), ('works_at', 1),
    ('role_is', 1), ('capital_of', 1), ('uses_package_manager', 1), ('uses_runtime', 1),
    ('uses_language', 1), ('uses_test_runner', 1), ('deploys_with', 1), ('uses_database', 1),
    ('uses_ci', 1), ('uses_editor', 1), ('uses_formatter', 1), ('uses_linter', 1),
    ('uses_cloud', 1), ('uses_framework', 0), ('prefers', 0), ('likes', 0), ('dislikes', 0),
    ('should', 0), ('should_not', 0);

CREATE TABLE IF NOT EXISTS entities (
    name       TEXT PRIMARY KEY,
    display    TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS beliefs_object ON beliefs(object);

CREATE TABLE IF NOT EXISTS tombstones (
    target_id  TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('episode', 'belief')),
    created_at INTEGER NOT NULL,
    hlc        INTEGER NOT NULL,
    origin     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tombstones_origin_hlc ON tombstones(origin, hlc);

CREATE TABLE IF NOT EXISTS vector_spaces (
    name        TEXT PRIMARY KEY,
    embedder_id TEXT NOT NULL UNIQUE,
    dim         INTEGER NOT NULL CHECK (dim > 0),
    created_at  INTEGER NOT NULL
);
