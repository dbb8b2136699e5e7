package extract

import "strings"

// OpensCorrection reports whether a message opens by correcting what was
// said just before it, and what it says after the opening: "hmm no,
// finance wants them in America/Chicago, my bad" → "finance wants them in
// america/chicago, my bad". "sorry if I'm slow today" apologises and
// corrects nothing.
func OpensCorrection(text string) (rest string, ok bool) {
	t := strings.ToLower(strings.TrimSpace(text))
	if strings.HasPrefix(t, "sorry if ") {
		return "", false
	}
	for range 4 { // "sorry, I meant …", "no no, actually …": openings stack
		if r, cut := strings.CutPrefix(t, "no "); cut && correctionPrefix().MatchString(r) {
			t = r // "no scratch that, …"
		}
		loc := correctionPrefix().FindStringIndex(t)
		if loc == nil {
			loc = meantPrefix().FindStringIndex(t)
		}
		if loc == nil {
			break
		}
		t, ok = strings.TrimSpace(t[loc[1]:]), true
	}
	if !ok {
		return "", false
	}
	return t, true
}
