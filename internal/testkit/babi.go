package testkit

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BabiStory is one story of the bAbI task-1 set: facts and questions, by
// line number.
type BabiStory struct {
	Story int `json:"story"`
	Facts []struct {
		Line int    `json:"line"`
		Text string `json:"text"`
	} `json:"facts"`
	Questions []struct {
		Line     int    `json:"line"`
		Question string `json:"question"`
		Answer   string `json:"answer"`
	} `json:"questions"`
}

// BabiStories reads the shared bAbI task-1 test split (CC BY 3.0; see
// shared/data/README.md). It lives outside the module, beside the
// checkout, so the calling test is skipped when it is absent.
func BabiStories(t *testing.T) []BabiStory {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(here), "../../../shared/data/babi-qa1/qa1_single-supporting-fact_test.jsonl")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		t.Skipf("bAbI data not present at %s", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []BabiStory
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var s BabiStory
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("parse bAbI: %v", err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
