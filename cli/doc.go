// Package cli is the credence command: one file per subcommand, each
// registering itself with Register from an init function, so adding a
// command never touches a shared table. Run is what cmd/credence's main
// calls.
//
// cli may import every other package of credence; nothing imports cli.
package cli
