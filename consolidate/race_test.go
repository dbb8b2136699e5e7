//go:build race

package consolidate

// raceEnabled shortens the longest replays under the race detector, which
// slows database-bound code about tenfold.
const raceEnabled = true
