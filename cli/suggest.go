package cli

import (
	"sort"
	"strings"

	"github.com/credence-mem/credence/internal/editdist"
)

// suggestCommand returns the registered command a mistyped name most
// likely meant, or "" when none is close: the nearest by edit distance
// (a swap of two neighbouring letters counts as one edit) within a third
// of the name's length, else the only command the name begins.
func suggestCommand(name string) string {
	name = strings.ToLower(name)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names) // ties go to the first in order, every run
	best, bestDist := "", max(1, len([]rune(name))/3)+1
	for _, n := range names {
		if d := editdist.Distance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	if best != "" {
		return best
	}
	var prefixed []string
	for _, n := range names {
		if len(name) >= 2 && strings.HasPrefix(n, name) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}
