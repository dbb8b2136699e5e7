package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyConversation is two short sessions in the LoCoMo layout: one question
// shares its words with the evidence turn, the other (the violin) none.
const tinyConversation = `[{"sample_id":"t","qa":[
 {"question":"Where did Ana go hiking?","evidence":["D1:2"],"category":1},
 {"question":"Which string instrument do you play?","evidence":["D2:1"],"category":1},
 {"question":"Would Bo enjoy a concert?","evidence":[],"category":3}],
"conversation":{"speaker_a":"Ana","speaker_b":"Bo",
 "session_1_date_time":"1 May 2023","session_1":[
  {"speaker":"Ana","dia_id":"D1:1","text":"Hi Bo, how are you?"},
  {"speaker":"Ana","dia_id":"D1:2","text":"I went hiking in the Alps last weekend."},
  {"speaker":"Bo","dia_id":"D1:3","text":"Wow that sounds great."}],
 "session_2_date_time":"2 May 2023","session_2":[
  {"speaker":"Bo","dia_id":"D2:1","text":"I have been practising the violin every day."},
  {"speaker":"Ana","dia_id":"D2:2","text":"Nice, keep it up!"}]}}]`

// TestConversations runs the long-conversation harness on a tiny sample
// through a real database: both questions with evidence are counted, BM25
// finds the hike but not the violin, and the current hybrid finds both
// within two results.
func TestConversations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.json")
	if err := os.WriteFile(path, []byte(tinyConversation), 0o600); err != nil {
		t.Fatal(err)
	}
	out := captureStdout(t, func() error { return conversations([]string{"-data", path, "-k", "2"}) })
	if !strings.Contains(out, "2 questions with evidence") {
		t.Fatalf("output does not count 2 questions:\n%s", out)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		for _, name := range []string{"bm25", "hybrid now"} {
			if strings.HasPrefix(line, name) {
				rows[name] = line
			}
		}
	}
	if !strings.Contains(rows["bm25"], "@2 0.500") || !strings.Contains(rows["hybrid now"], "@2 1.000") {
		t.Errorf("want BM25 at 0.500 and the hybrid at 1.000 at k=2:\n%s", out)
	}
	if err := conversations([]string{"-data", path, "-k", "0"}); err == nil {
		t.Error("-k 0 accepted")
	}
}

func captureStdout(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		var b bytes.Buffer
		io.Copy(&b, r)
		done <- b.String()
	}()
	ferr := f()
	os.Stdout = old
	w.Close()
	out := <-done
	if ferr != nil {
		t.Fatal(ferr)
	}
	return out
}
