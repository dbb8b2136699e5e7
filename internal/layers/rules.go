package layers

// Rule is one row of the package table: the packages it covers and what
// they must not import.
//
// Names are module-relative for credence's packages ("store",
// "config/defaults"), full paths for other modules
// ("github.com/fsnotify/fsnotify") and import paths for the standard
// library ("os", "log/slog"). A name covers the packages below it too:
// "crypto" covers "crypto/sha256". A name that is a credence package means
// that package, never a standard one of the same name (credence's embed).
type Rule struct {
	// Packages are the first column, in the document's order.
	Packages []string
	// Only, when not nil, lists every credence package and module the
	// packages may import themselves, besides the standard library; what
	// those import is their own rule's business. The document's cell starts
	// "anything but".
	Only []string
	// Never are packages they must not depend on, directly or through
	// another package: the hot path must not pay for them at all.
	Never []string
	// NotItself are standard library packages they must not import
	// themselves. fmt imports os, so only a direct import says that a
	// package does I/O.
	NotItself []string
	// ForTests marks helpers for tests and benchmarks: no package outside
	// the row imports them (tests do). The document's second cell says
	// "only tests".
	ForTests bool
}

// Names returns every name the rule mentions; the document's cell names
// exactly these, in backticks.
func (r Rule) Names() []string {
	return append(append(append([]string{}, r.Only...), r.Never...), r.NotItself...)
}

// Rules is the package table of docs/ARCHITECTURE.md, one Rule per row, in
// its order. Every package of the module is in exactly one row.
var Rules = []Rule{
	{Packages: []string{"belief"}, Only: []string{}, NotItself: []string{"os", "net", "database/sql", "syscall"}},
	{Packages: []string{"ids"}, Only: []string{"github.com/oklog/ulid"}},
	{Packages: []string{"store"}, Never: []string{"hooks", "agent", "llm", "syncer", "markdown"}},
	{Packages: []string{"embed"}, Never: []string{"store", "agent"}},
	{Packages: []string{"embed/wordvec"}, Only: []string{}},
	{Packages: []string{"config"}, Never: []string{"store"}},
	{Packages: []string{"app"}, Never: []string{"hooks", "agent", "cli"}},
	{Packages: []string{"redact", "transcript", "relations"}, Only: []string{"internal/lazyre"}},
	{Packages: []string{"recall", "hooks"}, Never: []string{"agent", "llm", "syncer", "github.com/fsnotify/fsnotify"}},
	{Packages: []string{"hookrelay"}, Only: []string{"config/defaults", "internal/rotfile", "golang.org/x/sys"},
		Never: []string{"log/slog", "encoding/json", "regexp", "crypto", "net/http", "runtime/cgo"}},
	{Packages: []string{"config/defaults"}, Only: []string{}},
	{Packages: []string{"logfile"}, Only: []string{"config", "config/defaults", "internal/rotfile"}},
	{Packages: []string{"internal/rotfile", "internal/lazyre", "internal/plural", "internal/layers", "internal/atomicfile", "internal/editdist"}, Only: []string{}},
	{Packages: []string{"extract", "consolidate", "llm"}, Never: []string{"hooks", "agent"}},
	{Packages: []string{"agent"}, Never: []string{"cli", "mcpserver", "install", "demo"}},
	{Packages: []string{"markdown", "promote"}, Never: []string{"hooks"}},
	{Packages: []string{"syncer"}, Never: []string{"hooks"}},
	{Packages: []string{"card"}, Never: []string{"hooks", "agent", "cli", "mcpserver", "syncer", "markdown"}},
	{Packages: []string{"install", "mcpserver", "cli", "demo"}},
	{Packages: []string{"cmd/credence"}, Only: []string{"cli"}},
	{Packages: []string{"cmd/credence-hook"}, Only: []string{"hookrelay"}},
	{Packages: []string{"cmd/credence-hook-local"}, Only: []string{"hooks"}},
	{Packages: []string{"internal/testkit", "llm/llmtest", "recall/synth", "scripts/bench-hooks", "scripts/bench-recall", "scripts/load-hooks", "scripts/wordvec", "e2e", "syncer/hranatest"}, ForTests: true},
}
