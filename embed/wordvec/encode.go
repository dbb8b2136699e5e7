package wordvec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
)

// Encode lays a table out (see the package documentation): words in the
// order given, each with its source rank and its vector, quantized to int8
// with one float32 step per vector. pcs records how many principal
// components were removed, for the record. scripts/wordvec calls it; so do
// the tests, on small tables.
func Encode(words []string, ranks []uint32, vecs [][]float64, pcs int) ([]byte, error) {
	n := len(words)
	if n == 0 || len(ranks) != n || len(vecs) != n {
		return nil, fmt.Errorf("wordvec: %d words, %d ranks, %d vectors", n, len(ranks), len(vecs))
	}
	dim := len(vecs[0])
	if dim == 0 || dim%4 != 0 {
		return nil, fmt.Errorf("wordvec: dimension %d is not a positive multiple of 4", dim)
	}
	slots := 1
	for slots < 2*n {
		slots <<= 1
	}
	table := make([]uint32, slots)
	var blob bytes.Buffer
	offsets := make([]uint32, 0, n+1)
	for i, w := range words {
		if w == "" || len(vecs[i]) != dim {
			return nil, fmt.Errorf("wordvec: entry %d (%q): empty word or vector of %d dimensions", i, w, len(vecs[i]))
		}
		offsets = append(offsets, uint32(blob.Len()))
		blob.WriteString(w)
		s := int(hash(w)) & (slots - 1)
		for table[s] != 0 {
			if words[table[s]-1] == w {
				return nil, fmt.Errorf("wordvec: %q twice", w)
			}
			s = (s + 1) & (slots - 1)
		}
		table[s] = uint32(i + 1)
	}
	offsets = append(offsets, uint32(blob.Len()))
	var out bytes.Buffer
	out.WriteString(magic)
	le := func(x any) {
		_ = binary.Write(&out, binary.LittleEndian, x) // a bytes.Buffer does not fail
	}
	le([]uint32{uint32(n), uint32(dim), uint32(blob.Len()), uint32(pcs), uint32(slots), 0})
	le(table)
	le(offsets)
	q := make([]int8, dim)
	for i, v := range vecs {
		maxAbs := 0.0
		for _, x := range v {
			maxAbs = math.Max(maxAbs, math.Abs(x))
		}
		scale := float32(maxAbs / 127)
		if scale == 0 {
			scale = 1
		}
		for d, x := range v {
			q[d] = int8(max(-127, min(127, math.Round(x/float64(scale)))))
		}
		le(ranks[i])
		le(scale)
		le(q)
	}
	out.Write(blob.Bytes())
	return out.Bytes(), nil
}
