// Package wordvec holds credence's pretrained word vectors: a compact table
// of 100-dimensional GloVe vectors (public domain, PDDL; see NOTICE) for the
// most frequent English words, built into the binary with go:embed and read
// in place. Nothing is decoded at start: a lookup is a binary search over
// the embedded bytes, so a process that embeds one query pays for the few
// pages it touches, not for the table.
//
// The table is derived by scripts/wordvec (NOTICE has the exact command),
// which writes it with Encode. Its layout, all integers and floats
// little-endian:
//
//	magic    8 bytes, "crdwv02\n"
//	header   uint32 n (words), dim, blob length, principal components
//	         removed, slots (a power of two, at least 2n), 0
//	slots    slots uint32: 1 + the entry of the word whose FNV-1a hash
//	         lands here or after (linear probing), 0 for none
//	offsets  (n+1) uint32: word i is blob[offsets[i]:offsets[i+1]]
//	records  n of (uint32 rank in the source, 0 = most frequent; float32
//	         step; dim int8): vector i is step·int8s; entries in the
//	         source's frequency order
//	blob     the words' bytes
//
// A lookup reads one slot (rarely two), one offset pair and the word, and
// a hit one record: a handful of pages, however large the table.
//
// wordvec imports only the standard library; package embed is its one user
// besides scripts/wordvec.
package wordvec
