//go:build !unix

package embed

import "time"

// processCPUTime is not measured on this platform.
func processCPUTime() (time.Duration, bool) { return 0, false }

// pageFaults is not measured on this platform.
func pageFaults() (int64, bool) { return 0, false }
