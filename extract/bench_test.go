package extract

import "testing"

// benchUtterances is the corpus repeated to 10,000 utterances.
func benchUtterances(b *testing.B) []string {
	b.Helper()
	cases := loadCorpus(b)
	texts := make([]string, 10000)
	for i := range texts {
		texts[i] = cases[i%len(cases)].Text
	}
	return texts
}

// BenchmarkExtract10k extracts from 10,000 corpus utterances per iteration;
// the agent runs Extract once per new episode.
func BenchmarkExtract10k(b *testing.B) {
	texts := benchUtterances(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, text := range texts {
			Extract(text)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(texts)), "ns/utterance")
}

// BenchmarkExtractLargePaste is a 32 KiB paste of prose, the most Extract
// reads from one text.
func BenchmarkExtractLargePaste(b *testing.B) {
	text := ""
	for len(text) < MaxInputBytes {
		text += "We talked about the release plan and the open issues in the tracker. "
	}
	b.ReportAllocs()
	for b.Loop() {
		Extract(text)
	}
}
