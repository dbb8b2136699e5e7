package transcript

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// KeyPrefix starts every exchange key.
const KeyPrefix = "ex_"

// NormalizePrompt returns the prompt as keys see it: surrounding white space
// removed and every run of white space (spaces, tabs, CR, LF) folded into
// one space, so the hook's copy of a prompt and the transcript's copy give
// the same key whatever line endings either used.
func NormalizePrompt(prompt string) string {
	return strings.Join(strings.Fields(prompt), " ")
}

// KeyFor returns the key of the first exchange in a session that starts
// with prompt. It is KeyForOccurrence(sessionID, prompt, 1).
func KeyFor(sessionID, prompt string) string {
	return KeyForOccurrence(sessionID, prompt, 1)
}

// KeyForOccurrence returns the stable key of an exchange: a hash of the
// session ID, the normalised prompt and the occurrence, which is 1 for the
// first prompt in the session with that normalised text, 2 for the second,
// and so on (values below 1 count as 1). The occurrence keeps a repeated
// prompt ("continue", "run the tests again") from colliding with its
// earlier turns.
//
// Both capture paths compute it from data they have:
//   - The agent's tailer gets it from Exchange.Key, which ReadExchanges
//     fills from the transcript.
//   - The Stop hook has session_id and last_assistant_message but not the
//     prompt. LastPrompt on transcript_path gives the prompt and its
//     occurrence in one pass (PromptRef.Key): by Stop time the prompt line
//     is in the file even when the final assistant line is not. A hook that
//     kept the prompt from UserPromptSubmit can instead count it with
//     CountPrompts.
//
// The key does not depend on the reply, so the hook's
// last_assistant_message and the tailer's fuller response map to the same
// key, and whichever path stores the exchange first wins.
func KeyForOccurrence(sessionID, prompt string, occurrence int) string {
	occurrence = max(occurrence, 1)
	h := sha256.New()
	h.Write([]byte(sessionID))
	h.Write([]byte{0})
	h.Write([]byte(NormalizePrompt(prompt)))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(occurrence)))
	return KeyPrefix + hex.EncodeToString(h.Sum(nil)[:16])
}

// promptID identifies a normalised prompt within a session, for counting
// occurrences without keeping the prompt text.
type promptID [sha256.Size]byte

func promptIDOf(sessionID, prompt string) promptID {
	h := sha256.New()
	h.Write([]byte(sessionID))
	h.Write([]byte{0})
	h.Write([]byte(NormalizePrompt(prompt)))
	var id promptID
	h.Sum(id[:0])
	return id
}
