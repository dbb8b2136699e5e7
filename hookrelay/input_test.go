package hookrelay

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestReadInput(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		max     int64
		wantErr error
	}{
		{"within the cap", `{"a":1}`, 100, nil},
		{"exactly the cap", `{"a":1}`, 7, nil},
		{"over the cap", `{"a":12}`, 7, ErrInputTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadInput(strings.NewReader(tc.data), tc.max, time.Minute)
			if !errors.Is(err, tc.wantErr) || err == nil && string(b) != tc.data {
				t.Errorf("ReadInput()=%q, %v; want %q, %v", b, err, tc.data, tc.wantErr)
			}
		})
	}
}
