//go:build !unix

package hookrelay

import (
	"errors"
	"time"
)

var errNeedsUnix = errors.New("handling an event in-process from credence-hook needs a Unix system; run the agent")

// execLocal needs exec(2); elsewhere the front only talks to the agent.
func execLocal(string, string, []byte, time.Time) error { return errNeedsUnix }

// handOver needs exec(2) too.
func handOver(string, time.Time) error { return errNeedsUnix }
