//go:build !race

package recall

const raceEnabled = false
