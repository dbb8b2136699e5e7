package embed

import (
	"errors"
	"math"
	"testing"
)

func TestCosine(t *testing.T) {
	tests := []struct {
		name string
		a, b []float32
		want float64
	}{
		{"identical", []float32{1, 2, 3}, []float32{1, 2, 3}, 1},
		{"scaled", []float32{1, 2, 3}, []float32{2, 4, 6}, 1},
		{"opposite", []float32{1, 0}, []float32{-1, 0}, -1},
		{"orthogonal", []float32{1, 0}, []float32{0, 1}, 0},
		{"45 degrees", []float32{1, 0}, []float32{1, 1}, 1 / math.Sqrt2},
		{"different lengths", []float32{1, 0}, []float32{1, 0, 0}, 0},
		{"zero vector", []float32{0, 0}, []float32{1, 0}, 0},
		{"empty", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Cosine(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
				t.Errorf("Cosine(%v, %v)=%v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		name string
		in   []float32
		want []float32
	}{
		{"3-4-5", []float32{3, 4}, []float32{0.6, 0.8}},
		{"already unit", []float32{0, -1}, []float32{0, -1}},
		{"zero stays zero", []float32{0, 0}, []float32{0, 0}},
		{"NaN left alone", []float32{float32(math.NaN()), 1}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Normalize(append([]float32(nil), tt.in...))
			if tt.want == nil {
				if !math.IsNaN(float64(got[0])) || got[1] != 1 {
					t.Errorf("Normalize(%v)=%v, want it unchanged", tt.in, got)
				}
				return
			}
			for i := range got {
				if math.Abs(float64(got[i]-tt.want[i])) > 1e-6 {
					t.Errorf("Normalize(%v)=%v, want %v", tt.in, got, tt.want)
					break
				}
			}
		})
	}
}

func TestEncodeDecodeF32(t *testing.T) {
	tests := []struct {
		name string
		v    []float32
		blob []byte
	}{
		{"one", []float32{1}, []byte{0x00, 0x00, 0x80, 0x3f}},
		{"negative half", []float32{-0.5}, []byte{0x00, 0x00, 0x00, 0xbf}},
		{"two values", []float32{1, -2}, []byte{0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0}},
		{"empty", []float32{}, []byte{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blob := EncodeF32(tt.v)
			if string(blob) != string(tt.blob) {
				t.Errorf("EncodeF32(%v)=% x, want % x", tt.v, blob, tt.blob)
			}
			back, err := DecodeF32(blob)
			if err != nil {
				t.Fatalf("DecodeF32(% x): %v", blob, err)
			}
			if len(back) != len(tt.v) {
				t.Fatalf("DecodeF32 gave %d values, want %d", len(back), len(tt.v))
			}
			for i := range back {
				if back[i] != tt.v[i] {
					t.Errorf("DecodeF32(EncodeF32(%v))=%v", tt.v, back)
				}
			}
		})
	}
}

func TestDecodeF32(t *testing.T) {
	tests := []struct {
		name    string
		blob    []byte
		want    []float32
		wantErr bool
	}{
		{"trailing float32 type byte", []byte{0x00, 0x00, 0x80, 0x3f, 0x01}, []float32{1}, false},
		{"float64 type byte", []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x02}, nil, true},
		{"three bytes", []byte{1, 2, 3}, nil, true},
		{"lone type byte", []byte{0x01}, []float32{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeF32(tt.blob)
			if tt.wantErr {
				if !errors.Is(err, ErrBlobLength) {
					t.Errorf("DecodeF32(% x) err=%v, want ErrBlobLength", tt.blob, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("DecodeF32(% x): %v", tt.blob, err)
			}
			if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
				t.Errorf("DecodeF32(% x)=%v, want %v", tt.blob, got, tt.want)
			}
		})
	}
}
