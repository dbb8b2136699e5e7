// Package editdist measures how far apart two short strings are, for
// spotting typos: a mistyped command (cli's suggestions) or a value
// corrected by its spelling ("John" after "Jon", extract's corrections).
//
// It imports only the standard library.
package editdist

// Distance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of adjacent runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2, prev, cur := make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
