package extract

import (
	"fmt"
	"os"
	"testing"
)

// TestHeldout2026Report prints only the aggregate tables of the frozen
// held-out set, never a case: run it once to report a number (go test
// -run TestHeldout2026Report -v ./extract with CREDENCE_HELDOUT_REPORT=1).
// TestHeldout2026 under -v also lists the misses, which must not be read
// while the extractor is being tuned.
func TestHeldout2026Report(t *testing.T) {
	if os.Getenv("CREDENCE_HELDOUT_REPORT") != "1" {
		t.Skip("set CREDENCE_HELDOUT_REPORT=1 to print the held-out aggregate")
	}
	cases := loadCases(t, heldoutFile)
	bare := scoreSet(cases, alone)
	withCtx := scoreSet(cases, inContext)
	t.Log("\n" + bare.table(fmt.Sprintf("held-out extraction (%s), utterance alone (Extract)", heldoutFile)) +
		withCtx.table(fmt.Sprintf("held-out extraction (%s), with the conversation's earlier utterances (ExtractWith)", heldoutFile)))
}

// TestExtractionReport prints only the aggregate tables of any labelled
// set, never a case, so a set kept for checking (one the tuner must not
// read) can still be scored: CREDENCE_EXTRACT_REPORT_FILE=testdata/F.jsonl
// go test -run 'TestExtractionReport$' -count=1 -v ./extract
func TestExtractionReport(t *testing.T) {
	file := os.Getenv("CREDENCE_EXTRACT_REPORT_FILE")
	if file == "" {
		t.Skip("set CREDENCE_EXTRACT_REPORT_FILE to a labelled set to print its aggregate")
	}
	cases := loadCases(t, file)
	t.Log("\n" + scoreSet(cases, alone).table(fmt.Sprintf("extraction (%s), utterance alone (Extract)", file)) +
		scoreSet(cases, inContext).table(fmt.Sprintf("extraction (%s), with the conversation's earlier utterances (ExtractWith)", file)))
}
