//go:build !race

package consolidate

const raceEnabled = false
