// Package logfile opens credence's per-component log files
// (<data>/logs/<component>.log, JSON lines, rotated once past a size) and the
// hook's fallback log in the system temp directory, used when the
// configured log directory cannot be written.
//
// It imports only config and the standard library, so credence-hook's small
// front (package hookrelay) can log without linking the database engine.
package logfile
