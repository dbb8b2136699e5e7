package wordvec

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"sync"
)

// glove is the derived table, in the read-only data of the binary.
//
//go:embed glove.bin
var glove string

const (
	// magic starts every table; the digits are the layout's version.
	magic      = "crdwv02\n"
	headerSize = len(magic) + 6*4
)

// ErrCorrupt is returned for bytes that are not a table of this layout.
var ErrCorrupt = errors.New("wordvec: corrupt table")

// Table is a word-vector table read in place from its bytes. It is
// immutable and safe for concurrent use.
type Table struct {
	data                          string
	n, dim, pcs, mask             int
	slots, offsets, records, blob int // section starts in data
	recordSize                    int
}

// Default returns the table built into the binary. Only its header is read.
var Default = sync.OnceValues(func() (*Table, error) { return Parse(glove) })

// Parse checks the header and the section sizes of a table and returns it.
// The bytes are used in place, not copied.
func Parse(data string) (*Table, error) {
	if len(data) < headerSize || data[:len(magic)] != magic {
		return nil, fmt.Errorf("%w: no header", ErrCorrupt)
	}
	t := &Table{data: data}
	h := func(i int) int { return int(t.u32(len(magic) + 4*i)) }
	t.n, t.dim, t.pcs = h(0), h(1), h(3)
	blobLen, slots := h(2), h(4)
	if t.n <= 0 || t.n > 1<<24 || t.dim <= 0 || t.dim > 4096 || t.dim%4 != 0 ||
		slots < t.n || slots&(slots-1) != 0 || slots > 1<<26 || h(5) != 0 {
		return nil, fmt.Errorf("%w: %d words of %d dimensions in %d slots", ErrCorrupt, t.n, t.dim, slots)
	}
	t.mask = slots - 1
	t.recordSize = 8 + t.dim
	t.slots = headerSize
	t.offsets = t.slots + 4*slots
	t.records = t.offsets + 4*(t.n+1)
	t.blob = t.records + t.n*t.recordSize
	if len(data) != t.blob+blobLen {
		return nil, fmt.Errorf("%w: %d bytes, want %d", ErrCorrupt, len(data), t.blob+blobLen)
	}
	if t.u32(t.offsets) != 0 || int(t.u32(t.offsets+4*t.n)) != blobLen {
		return nil, fmt.Errorf("%w: word offsets do not span the words", ErrCorrupt)
	}
	return t, nil
}

func (t *Table) u32(at int) uint32 {
	d := t.data[at : at+4]
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
}

// Len returns how many words the table holds.
func (t *Table) Len() int { return t.n }

// Dim returns the length of every vector.
func (t *Table) Dim() int { return t.dim }

// Word returns entry i's word; "" if the table's offsets are bad.
func (t *Table) Word(i int) string {
	lo, hi := int(t.u32(t.offsets+4*i)), int(t.u32(t.offsets+4*i+4))
	if lo > hi || t.blob+hi > len(t.data) {
		return ""
	}
	return t.data[t.blob+lo : t.blob+hi]
}

// Rank returns entry i's frequency rank in the source, 0 for the most
// frequent word.
func (t *Table) Rank(i int) int { return int(t.u32(t.records + i*t.recordSize)) }

// Find returns the entry of word. It hashes the word to a slot and probes
// on from there, so a lookup reads a slot, an offset and the word's bytes:
// a few pages of the binary, however large the table.
func (t *Table) Find(word string) (int, bool) {
	if word == "" {
		return 0, false
	}
	for s, probes := int(hash(word))&t.mask, 0; probes <= t.mask; s, probes = (s+1)&t.mask, probes+1 {
		e := int(t.u32(t.slots + 4*s))
		switch {
		case e == 0:
			return 0, false
		case e > t.n:
			return 0, false // corrupt; Parse does not scan every slot
		case t.Word(e-1) == word:
			return e - 1, true
		}
	}
	return 0, false
}

// AddTo adds weight times entry i's vector to dst, which must be Dim long.
// Each product is rounded to float32 explicitly, so no platform fuses the
// multiply and the add and the sums are the same on every machine.
func (t *Table) AddTo(dst []float32, i int, weight float32) {
	rec := t.records + i*t.recordSize
	scale := math.Float32frombits(t.u32(rec + 4))
	w := float32(weight * scale)
	row := t.data[rec+8 : rec+8+t.dim]
	dst = dst[:len(row)]
	for d := range len(row) {
		p := float32(w * float32(int8(row[d])))
		dst[d] += p
	}
}

// hash is 64-bit FNV-1a; the writer and the reader must agree on it.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}
