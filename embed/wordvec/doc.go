// Package wordvec holds credence's pretrained word vectors: a compact table
// of 100-dimensional GloVe vectors (public domain, PDDL; see NOTICE) for the
// most frequent English words, built into the binary with go:embed and read
// in place. Nothing is decoded at start: a lookup is a binary search over
// the embedded bytes, so a process that embeds one query pays for the few
// pages it touches, not for the table.
//
// The table is derived by scripts/wordvec (NOTICE has the exact command).
// Its layout, all integers and floats little-endian:
//
//	magic    8 bytes, "crdwv01\n"
//	header   uint32 n (words), dim, blob length, principal components removed
//	offsets  (n+1) uint32: word i is blob[offsets[i]:offsets[i+1]]; entries in
//	         frequency order of the source
//	sorted   n uint32: entry indexes in byte order of their words
//	ranks    n uint32: each word's rank in the source (0 = most frequent)
//	scales   n float32: each vector's int8 step
//	vectors  n·dim int8: vector i is scales[i]·vectors[i·dim:(i+1)·dim]
//	blob     the words' bytes
//
// wordvec imports only the standard library; package embed is its one user.
package wordvec
