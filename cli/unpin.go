package cli

import "github.com/credence-mem/credence/belief"

func init() {
	Register(Command{
		Name:    "unpin",
		Usage:   "[--json] <belief-id>...",
		Summary: "unpin beliefs: the lifecycle gates may archive them again",
		Run:     func(env *Env, args []string) int { return runMark(env, "unpin", belief.Unpin, args) },
	})
}
