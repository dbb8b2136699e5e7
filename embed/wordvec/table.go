package wordvec

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
)

// glove is the derived table, in the read-only data of the binary.
//
//go:embed glove.bin
var glove string

const (
	magic      = "crdwv01\n"
	headerSize = len(magic) + 4*4
)

// ErrCorrupt is returned for bytes that are not a table of this layout.
var ErrCorrupt = errors.New("wordvec: corrupt table")

// Table is a word-vector table read in place from its bytes. It is
// immutable and safe for concurrent use.
type Table struct {
	data                                   string
	n, dim, pcs                            int
	offsets, sorted, ranks, scales, vector int // section starts in data
	blob                                   int
}

// Default returns the table built into the binary. Only its header is read.
var Default = sync.OnceValues(func() (*Table, error) { return Parse(glove) })

// Parse checks the header and the section sizes of a table and returns it.
// The bytes are used in place, not copied.
func Parse(data string) (*Table, error) {
	if len(data) < headerSize || !strings.HasPrefix(data, magic) {
		return nil, fmt.Errorf("%w: no header", ErrCorrupt)
	}
	t := &Table{data: data}
	t.n, t.dim = int(t.u32(len(magic))), int(t.u32(len(magic)+4))
	blobLen, pcs := int(t.u32(len(magic)+8)), int(t.u32(len(magic)+12))
	t.pcs = pcs
	if t.n <= 0 || t.dim <= 0 || t.dim > 4096 || t.n > 1<<24 {
		return nil, fmt.Errorf("%w: %d words of %d dimensions", ErrCorrupt, t.n, t.dim)
	}
	t.offsets = headerSize
	t.sorted = t.offsets + 4*(t.n+1)
	t.ranks = t.sorted + 4*t.n
	t.scales = t.ranks + 4*t.n
	t.vector = t.scales + 4*t.n
	t.blob = t.vector + t.n*t.dim
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

// Word returns entry i's word.
func (t *Table) Word(i int) string {
	lo, hi := t.u32(t.offsets+4*i), t.u32(t.offsets+4*i+4)
	if lo > hi || t.blob+int(hi) > len(t.data) {
		return ""
	}
	return t.data[t.blob+int(lo) : t.blob+int(hi)]
}

// Rank returns entry i's frequency rank in the source, 0 for the most
// frequent word.
func (t *Table) Rank(i int) int { return int(t.u32(t.ranks + 4*i)) }

// Find returns the entry of word, by binary search over the sorted index.
func (t *Table) Find(word string) (int, bool) {
	lo, hi := 0, t.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		e := int(t.u32(t.sorted + 4*mid))
		if e >= t.n {
			return 0, false
		}
		switch c := strings.Compare(t.Word(e), word); {
		case c == 0:
			return e, true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// AddTo adds weight times entry i's vector to dst, which must be Dim long.
// Each product is rounded to float32 explicitly, so no platform fuses the
// multiply and the add and the sums are the same on every machine.
func (t *Table) AddTo(dst []float32, i int, weight float32) {
	scale := math.Float32frombits(t.u32(t.scales + 4*i))
	w := float32(weight * scale)
	row := t.data[t.vector+i*t.dim : t.vector+(i+1)*t.dim]
	dst = dst[:len(row)]
	for d := range len(row) {
		p := float32(w * float32(int8(row[d])))
		dst[d] += p
	}
}
