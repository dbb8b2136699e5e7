//go:build unix && !linux

package hookrelay

import "os"

// stdinFile returns a file positioned at the start of data: a file in the
// private data directory (the system temp directory when that is not
// writable), unlinked at once so only the open descriptor holds it.
func stdinFile(data []byte, dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, ".hook-stdin-*")
	if err != nil {
		if f, err = os.CreateTemp("", "credence-hook-stdin-*"); err != nil {
			return nil, err
		}
	}
	os.Remove(f.Name())
	return rewound(f, data)
}
