//go:build !unix

package transcript

import "os"

func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
