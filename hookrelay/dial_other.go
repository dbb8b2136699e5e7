//go:build !unix

package hookrelay

import "errors"

// dial has no Unix socket to reach outside Unix systems.
func dial(string) (agentConn, error) {
	return nil, errors.New("dial agent: needs a Unix system")
}
