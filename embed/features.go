package embed

import "math"

const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

// hashString is FNV-1a over s, seeded per feature kind and finished with a
// mixer so both the low bits (sign) and high bits (index) are well spread.
func hashString(seed uint64, s string) uint64 {
	h := fnvOffset ^ seed
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return mix(h)
}

// mix is the splitmix64 finalizer.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	h ^= h >> 31
	return h
}

// featureBag counts hashed features with an open-addressing table, so the
// sublinear term frequency 1+ln(tf) is exact per feature and a repeated word
// cannot drown out the rest of a text.
type featureBag struct {
	slots []bagSlot
	used  []int32 // occupied slot indexes, in insertion order
}

type bagSlot struct {
	key    uint64
	weight float32
	count  uint32
}

func newFeatureBag(capacity int) featureBag {
	size := 1
	for size < 2*capacity {
		size <<= 1
	}
	return featureBag{slots: make([]bagSlot, size)}
}

func (b *featureBag) len() int { return len(b.used) }

func (b *featureBag) reset() {
	for _, i := range b.used {
		b.slots[i] = bagSlot{}
	}
	b.used = b.used[:0]
}

// add records one occurrence of key. Keys are hashes, so 0 stands in for
// "empty slot" and a real 0 is nudged to 1.
func (b *featureBag) add(key uint64, weight float64) {
	if key == 0 {
		key = 1
	}
	if 2*(len(b.used)+1) > len(b.slots) {
		b.grow()
	}
	mask := uint64(len(b.slots) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		s := &b.slots[i]
		switch s.key {
		case 0:
			*s = bagSlot{key: key, weight: float32(weight), count: 1}
			b.used = append(b.used, int32(i))
			return
		case key:
			s.count++
			s.weight = max(s.weight, float32(weight))
			return
		}
	}
}

func (b *featureBag) grow() {
	old, oldUsed := b.slots, b.used
	b.slots = make([]bagSlot, 2*len(old))
	b.used = make([]int32, 0, 2*len(oldUsed))
	mask := uint64(len(b.slots) - 1)
	for _, oi := range oldUsed {
		s := old[oi]
		i := s.key & mask
		for b.slots[i].key != 0 {
			i = (i + 1) & mask
		}
		b.slots[i] = s
		b.used = append(b.used, int32(i))
	}
}

// projections is how many dimensions each feature is spread over. With one,
// a chance collision of two heavy features (a tool name in each text) adds
// their whole weight to the cosine; spreading each over a few dimensions
// with independent signs turns that into many small collisions that mostly
// cancel.
const projections = 3

// project folds the features into a dim-length unit vector. A key is
// already a mixed hash, so its bits are used directly: projection j takes
// bits 16j..16j+15 for the dimension and bit 48+j for the sign.
func (b *featureBag) project(dim int) []float32 {
	v := make([]float32, dim)
	scale := 1 / math.Sqrt(projections)
	for _, i := range b.used {
		s := b.slots[i]
		w := float32(float64(s.weight) * sublinearTF(s.count) * scale)
		for j := range projections {
			idx := int(((s.key >> (16 * j)) & 0xffff) * uint64(dim) >> 16)
			if s.key>>(48+j)&1 == 1 {
				v[idx] -= w
			} else {
				v[idx] += w
			}
		}
	}
	return Normalize(v)
}

// sublinearTF returns 1+ln(count), so a word said ten times counts about
// three times as much as a word said once.
func sublinearTF(count uint32) float64 {
	if count <= 1 {
		return 1
	}
	return 1 + portableLn(float64(count))
}

// portableLn is ln(x) for x >= 1 from basic IEEE operations only. math.Log
// is assembly on some architectures and may differ in the last bit from
// the pure Go version used on others; vectors must be identical on every
// machine that syncs. The explicit float64 conversions stop the compiler
// from fusing multiply-adds, which arm64 would otherwise do.
func portableLn(x float64) float64 {
	const ln2 = 0.6931471805599453
	k := 0
	for x >= 2 {
		x /= 2 // exact
		k++
	}
	// ln(x) = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …) with s = (x-1)/(x+1) <= 1/3.
	s := (x - 1) / (x + 1)
	s2 := float64(s * s)
	term, sum := s, 0.0
	for i := 1; i < 40; i += 2 {
		sum += float64(term / float64(i))
		term = float64(term * s2)
	}
	return float64(2*sum) + float64(float64(k)*ln2)
}
