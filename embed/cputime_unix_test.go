//go:build unix

package embed

import (
	"syscall"
	"time"
)

// processCPUTime returns the user+system CPU time this process has used.
// Benchmarks report it beside wall time because a loaded machine inflates
// ns/op with time spent waiting for a core.
func processCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// pageFaults returns how many minor page faults this process has taken:
// each is a page touched for the first time, such as a page of the word
// table in the binary.
func pageFaults() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Minflt, true
}
