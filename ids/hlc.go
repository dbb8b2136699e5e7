package ids

import (
	"fmt"
	"time"
)

// HLC is a hybrid logical clock value: wall-clock milliseconds in the high
// 48 bits and a logical counter in the low 16. Comparing two values as
// integers orders events causally across machines even when their clocks
// disagree a little. Ties between machines are broken by row ID.
type HLC int64

const logicalBits = 16

// MakeHLC packs a wall time in milliseconds and a logical counter.
func MakeHLC(ms int64, logical uint16) HLC { return HLC(ms<<logicalBits | int64(logical)) }

// Millis returns the wall-clock part of h in Unix milliseconds.
func (h HLC) Millis() int64 { return int64(h) >> logicalBits }

// Logical returns the counter part of h.
func (h HLC) Logical() uint16 { return uint16(int64(h) & (1<<logicalBits - 1)) }

// Time returns the wall-clock part of h as a time.
func (h HLC) Time() time.Time { return time.UnixMilli(h.Millis()) }

func (h HLC) String() string { return fmt.Sprintf("%d.%d", h.Millis(), h.Logical()) }

// Tick returns the next clock value after last for a local event at wall time
// now: the wall time when it has moved past last, otherwise last plus one
// logical step.
func Tick(last HLC, now time.Time) HLC {
	wall := MakeHLC(now.UnixMilli(), 0)
	if wall > last {
		return wall
	}
	return last + 1
}

// Receive returns the clock value after observing a remote value: it is
// greater than both last and remote, so every later local event sorts after
// everything this machine has seen.
func Receive(last, remote HLC, now time.Time) HLC {
	if remote > last {
		last = remote
	}
	return Tick(last, now)
}
