// Package ids makes the identifiers and timestamps of rows that cross
// machines: prefixed ULIDs ("ep_…", "bl_…", "ev_…") that sort by creation
// time, and hybrid logical clock values that order events from several
// machines consistently.
//
// ids imports only the standard library and oklog/ulid; it must not import
// store or anything above it.
package ids
