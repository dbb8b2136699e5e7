-- Turn off FTS5's 'secure-delete' option (0002 turned it on) and rebuild
-- both full-text indexes.
--
-- On libSQL's FTS5 (SQLite 3.45.1) the option damages an external-content
-- index: a secure delete that empties a segment's first leaf page leaves an
-- empty leaf there, which is valid only in an index marked version 5, and
-- FTS5 bumps that mark from 4 to 5 for a regular table but not for an
-- external-content one (ours, content='episodes' and content='beliefs').
-- integrity_check then reports "malformed inverted index" after the first
-- forget. Forgetting does not need the option: Purge merges each index into
-- one segment ('optimize'), which drops a deleted row's tokens, and the
-- connection's secure_delete pragma zeroes the pages the old segments held.
--
-- 'rebuild' repairs an index a forget already damaged and writes a
-- compact one from the text that is left (forgotten rows are blank).

INSERT INTO episodes_fts(episodes_fts, rank) VALUES ('secure-delete', 0);
INSERT INTO beliefs_fts(beliefs_fts, rank) VALUES ('secure-delete', 0);
INSERT INTO episodes_fts(episodes_fts) VALUES ('rebuild');
INSERT INTO beliefs_fts(beliefs_fts) VALUES ('rebuild');
