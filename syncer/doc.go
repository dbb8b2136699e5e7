// Package syncer shares one person's memory between their machines through a
// remote libSQL database (DESIGN §8): Turso Cloud (libsql://), a self-hosted
// sqld (https:// or http://), or any file: URL, opened with go-libsql.
//
// A round surveys the remote in one statement (identity, schema, rows
// waiting and head per table), pulls other machines' episodes, evidence,
// belief events and tombstones past a remote cursor and applies them
// (store.Tx.ApplySync folds the touched beliefs again), merges twins
// created independently on two machines (store.Tx.MergeDuplicates), then
// pushes this machine's rows past a local cursor as SQL literals. Inserts
// are idempotent by ID and cursors advance only in the transaction that
// commits the rows they cover, so a round can stop anywhere and the next
// one resumes without loss or duplication. The auth token never appears in
// a log line or an error.
//
// go-libsql's remote client reaches an HTTP remote through a relay on
// 127.0.0.1 (relay.go), which bounds every request by a deadline, cancels
// it with the round's context and names how it failed (ErrUnreachable,
// ErrTokenRefused, ErrRateLimited, ErrTooLarge, ErrRemoteFailed).
//
// It owns the remote schema, the Remote interface (with the go-libsql
// implementation), the Syncer that runs rounds, Status and Recorded for
// the status and doctor commands, and Loop for the agent. Its tests run
// over a file and over syncer/hranatest, a Hrana server with faults. It
// imports store, config, ids and the driver; it must not import hooks,
// agent, cli, markdown or the LLM client.
package syncer
