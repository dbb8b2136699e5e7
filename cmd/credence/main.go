// Command credence is the CLI and background agent of credence. See
// `credence help`.
package main

import (
	"context"
	"os"

	"github.com/credence-mem/credence/cli"
)

func main() {
	os.Exit(cli.Run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
