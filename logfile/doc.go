// Package logfile opens credence's per-component log files
// (<data>/logs/<component>.log, JSON lines, rotated once past a size;
// internal/rotfile) and the hook's fallback log in the system temp
// directory, used when the configured log directory cannot be written.
//
// credence-hook's front does not use it: it writes its rare lines itself
// (hookrelay/log.go), so that it links neither slog nor the layered config.
package logfile
