// Package config owns credence's settings: the Config struct with every
// tunable and its default, loading it in layers (defaults, the TOML file,
// CREDENCE_* environment variables, dotted-key overrides from flags),
// validation whose messages name the field and the fix, the file and data
// paths derived from HOME and the XDG variables, and the generated reference
// in docs/CONFIG.md.
//
// The hook reads the config on every prompt, so Load does no network I/O and
// at most one small file read. config is a leaf: it imports only the standard
// library and github.com/BurntSushi/toml, and must not import store, belief,
// embed, hooks, agent, install or any other credence package, so every one of
// them can import it.
package config
