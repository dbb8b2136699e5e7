//go:build race

package recall

// raceEnabled skips the passes that measure recall's numbers on the
// labelled history under the race detector (measuresQuality).
const raceEnabled = true
