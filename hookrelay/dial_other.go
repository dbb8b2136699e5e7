//go:build !unix

package hookrelay

import (
	"errors"
	"os"
)

// dial has no Unix socket to reach outside Unix systems.
func dial(string) (*os.File, error) {
	return nil, errors.New("dial agent: needs a Unix system")
}
