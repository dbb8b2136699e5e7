//go:build !unix

package hookrelay

import (
	"errors"
	"time"

	"github.com/credence-mem/credence/config"
)

// execLocal needs exec(2); elsewhere the front only talks to the agent.
func execLocal(*config.Config, string, []byte, time.Time) error {
	return errors.New("handling an event in-process from credence-hook needs a Unix system; run the agent")
}
