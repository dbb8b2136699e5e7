package layers

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/credence-mem/credence"

// pkg is one package of the module as `go list` sees it, with full import
// paths.
type pkg struct {
	path    string
	imports []string // its own imports
	deps    []string // everything it depends on
}

// listModule runs `go list` over the module, keyed by module-relative name.
func listModule(t *testing.T) map[string]pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{join .Imports \" \"}}\t{{join .Deps \" \"}}", "./...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]pkg{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		pkgs[strings.TrimPrefix(f[0], module+"/")] = pkg{path: f[0], imports: strings.Fields(f[1]), deps: strings.Fields(f[2])}
	}
	return pkgs
}

// resolve turns a Rule name into an import path: credence's packages are
// named relative to the module.
func resolve(name string, pkgs map[string]pkg) string {
	if p, ok := pkgs[name]; ok {
		return p.path
	}
	return name
}

// covers reports whether the import path path is, or is below, the
// import path of a Rule name.
func covers(path, name string) bool {
	return path == name || strings.HasPrefix(path, name+"/")
}

// stdlib reports whether an import path is the standard library's: its
// first element has no dot (credence's start with github.com).
func stdlib(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".") && path != "C"
}

// TestLayers checks every package of the module against its row of the
// table: what it imports, what it depends on, who depends on it.
func TestLayers(t *testing.T) {
	pkgs := listModule(t)
	rowOf := map[string]int{}
	for i, r := range Rules {
		for _, p := range r.Packages {
			if _, dup := rowOf[p]; dup {
				t.Errorf("%s is in two rows", p)
			}
			rowOf[p] = i
			if _, ok := pkgs[p]; !ok {
				t.Errorf("row %v names %s, which is not a package of the module", r.Packages, p)
			}
		}
	}
	paths := func(names []string) []string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = resolve(n, pkgs)
		}
		return out
	}
	for name, p := range pkgs {
		i, ok := rowOf[name]
		if !ok {
			t.Errorf("%s is in no row of the package table (internal/layers and docs/ARCHITECTURE.md)", name)
			continue
		}
		r := Rules[i]
		if r.Only != nil {
			only := paths(r.Only)
			for _, imp := range p.imports {
				if !stdlib(imp) && imp != "C" && !slices.ContainsFunc(only, func(o string) bool { return covers(imp, o) }) {
					t.Errorf("%s imports %s; it may import only %v and the standard library", name, imp, r.Only)
				}
			}
		}
		for _, never := range paths(r.Never) {
			for _, dep := range p.deps {
				if covers(dep, never) {
					t.Errorf("%s depends on %s; it must not import %s, even indirectly", name, dep, never)
				}
			}
		}
		for _, not := range r.NotItself {
			for _, imp := range p.imports {
				if covers(imp, not) {
					t.Errorf("%s imports %s; it must not", name, imp)
				}
			}
		}
		if r.ForTests {
			for other, q := range pkgs {
				if rowOf[other] != i && slices.Contains(q.deps, p.path) {
					t.Errorf("%s depends on %s, which is for tests only", other, name)
				}
			}
		}
	}
}

// docRow is one row of the document's package table.
type docRow struct {
	packages   []string
	owns, rule string
}

// readDocTable returns the rows of the table under "## Packages" in
// docs/ARCHITECTURE.md.
func readDocTable(t *testing.T) []docRow {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## Packages\n")
	if !ok {
		t.Fatal("docs/ARCHITECTURE.md has no \"## Packages\" section")
	}
	var rows []docRow
	for line := range strings.Lines(section) {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "## ") {
			break
		}
		if !strings.HasPrefix(line, "| `") {
			continue // prose, the header or its rule
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		if len(cells) != 3 {
			t.Fatalf("a row of the package table without three cells: %s", line)
		}
		rows = append(rows, docRow{packages: backticked(cells[0]), owns: strings.TrimSpace(cells[1]), rule: strings.TrimSpace(cells[2])})
	}
	return rows
}

var backtickRe = regexp.MustCompile("`([^`]+)`")

// backticked returns the names in backticks in a cell.
func backticked(cell string) []string {
	var out []string
	for _, m := range backtickRe.FindAllStringSubmatch(cell, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestDocumentMatchesRules checks that docs/ARCHITECTURE.md's table says
// what Rules enforce: the same rows in the same order, and each "must not
// import" cell naming exactly the packages of its rule.
func TestDocumentMatchesRules(t *testing.T) {
	rows := readDocTable(t)
	if len(rows) != len(Rules) {
		t.Errorf("the document's table has %d rows, Rules %d", len(rows), len(Rules))
	}
	for i := range min(len(rows), len(Rules)) {
		d, r := rows[i], Rules[i]
		if !slices.Equal(d.packages, r.Packages) {
			t.Errorf("row %d: the document covers %v, Rules %v", i+1, d.packages, r.Packages)
			continue
		}
		got, want := slices.Sorted(slices.Values(backticked(d.rule))), slices.Sorted(slices.Values(r.Names()))
		if !slices.Equal(got, want) {
			t.Errorf("row %v: the document's rule names %q, Rules %q:\n%s", r.Packages, got, want, d.rule)
		}
		if only := strings.HasPrefix(d.rule, "anything but"); only != (r.Only != nil) {
			t.Errorf("row %v: the document's rule starts %q, but Rules has Only=%v", r.Packages, d.rule, r.Only)
		}
		if none := d.rule == "—"; none != (len(r.Names()) == 0 && r.Only == nil) {
			t.Errorf("row %v: the document says %q, Rules %+v", r.Packages, d.rule, r)
		}
		if r.ForTests != strings.Contains(d.owns, "only tests") {
			t.Errorf("row %v: ForTests=%v, and the document says %q", r.Packages, r.ForTests, d.owns)
		}
	}
}
