package config

import (
	"reflect"
	"testing"

	"github.com/credence-mem/credence/belief"
)

// TestDefaultBeliefParams checks the config defaults are the seeds'
// constants, as package belief states them.
func TestDefaultBeliefParams(t *testing.T) {
	c := Default()
	if got, want := c.BeliefParams(), belief.DefaultParams(); !reflect.DeepEqual(got, want) {
		t.Errorf("Default().BeliefParams()=\n%+v\nwant\n%+v", got, want)
	}
}
