package embed

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// f32TypeByte is the optional trailing byte libSQL appends to a FLOAT32
// vector blob to name its element type. EncodeF32 never writes it (libSQL's
// own vector() function omits it for float32), but DecodeF32 accepts it so
// blobs produced by vector32() or other clients read back the same.
const f32TypeByte = 1

// ErrBlobLength reports a vector blob whose size is not a whole number of
// little-endian float32 values.
var ErrBlobLength = errors.New("vector blob length is not a multiple of 4")

// Cosine returns the cosine similarity of a and b, accumulated in float64.
// It returns 0 when the lengths differ or either vector is all zeros, so a
// vector from another embedder or a failed embedding never looks similar.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	c := dot / (math.Sqrt(na) * math.Sqrt(nb))
	// Rounding can push identical vectors a hair past 1; callers compare
	// against thresholds and must not see impossible values.
	return math.Max(-1, math.Min(1, c))
}

// Normalize scales v in place to unit Euclidean length and returns it. A
// zero vector, or one holding NaN or Inf, is left unchanged because it has
// no direction to keep.
func Normalize(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		// The conversion rounds the product, so no platform fuses it into
		// a multiply-add and the result is the same everywhere.
		sum += float64(float64(x) * float64(x))
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return v
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return v
}

// EncodeF32 lays v out as libSQL's F32_BLOB expects: each element as a
// little-endian IEEE-754 float32, 4*len(v) bytes, no header or type byte.
func EncodeF32(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// DecodeF32 reads a libSQL F32_BLOB back into a vector. It accepts the
// optional trailing float32 type byte libSQL may store and rejects any other
// length that is not a multiple of 4.
func DecodeF32(b []byte) ([]float32, error) {
	if len(b)%4 == 1 && b[len(b)-1] == f32TypeByte {
		b = b[:len(b)-1]
	}
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("decode f32 blob of %d bytes: %w", len(b), ErrBlobLength)
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
