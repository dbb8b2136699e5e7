// Package hranatest is a Hrana 3 over HTTP server for tests: what Turso
// Cloud and a self-hosted sqld speak to go-libsql's remote client, written
// from the protocol's public specification (tursodatabase/libsql,
// docs/HRANA_3_SPEC.md) and backed by a real libSQL file through
// go-libsql's local engine, on a free port of 127.0.0.1.
//
// It serves what go-libsql sends (found by logging its requests): POST
// /v3/pipeline (also /v2/pipeline) with execute, batch (with conditions),
// sequence, describe, store_sql, close_sql, get_autocommit and close, and
// POST /v3/cursor, whose batch results stream back as lines; GET /v3 and
// /v2 answer the version checks. Streams are tied to their requests by
// single-use batons and expire when idle, rolling back an open
// transaction, as a dropped client's is on a real server. Every request
// must carry the bearer token when one is set. It speaks JSON only, not
// Protobuf.
//
// On command (Server.Inject, or a Policy for every request) it misbehaves:
// connections dropped before or after the statements run (and so before
// or after a COMMIT commits), HTTP errors (401, 403, 429 with
// Retry-After, 5xx), slow and truncated answers, expired streams, and
// bodies refused as too large; SetDown takes it off the network and back.
//
// Only tests import it; it must not import credence's packages.
package hranatest
