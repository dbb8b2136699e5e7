-- Full-text indexes over episodes and beliefs, kept in step by triggers.
-- secure-delete makes FTS5 remove a deleted row's tokens from its segments
-- instead of only marking them, so forgotten text does not linger there.

CREATE VIRTUAL TABLE IF NOT EXISTS episodes_fts USING fts5(
    content, summary, content='episodes', content_rowid='seq', tokenize='porter unicode61'
);
INSERT INTO episodes_fts(episodes_fts, rank) VALUES ('secure-delete', 1);
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
INSERT INTO episodes_fts(episodes_fts) VALUES ('rebuild');

CREATE VIRTUAL TABLE IF NOT EXISTS beliefs_fts USING fts5(
    statement, subject, object, content='beliefs', content_rowid='seq', tokenize='porter unicode61'
);
INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('secure-delete', 1);
CREATE TRIGGER IF NOT EXISTS beliefs_ai AFTER INSERT ON beliefs BEGIN
    INSERT INTO beliefs_fts(rowid, statement, subject, object) VALUES (new.seq, new.statement, new.subject, new.object);
END;
CREATE TRIGGER IF NOT EXISTS beliefs_ad AFTER DELETE ON beliefs BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, statement, subject, object)
    VALUES ('delete', old.seq, old.statement, old.subject, old.object);
END;
CREATE TRIGGER IF NOT EXISTS beliefs_au AFTER UPDATE OF statement, subject, object ON beliefs BEGIN
    INSERT INTO beliefs_fts(beliefs_fts, rowid, statement, subject, object)
    VALUES ('delete', old.seq, old.statement, old.subject, old.object);
    INSERT INTO beliefs_fts(rowid, statement, subject, object) VALUES (new.seq, new.statement, new.subject, new.object);
END;
INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild');
