package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/credence-mem/credence/embed"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/recall/synth"
	"github.com/credence-mem/credence/store"
)

// A long-conversation benchmark in the LoCoMo layout (Maharana et al.,
// 2024: a JSON array of samples, each with "conversation" holding
// "session_N" lists of turns {speaker, dia_id, text} and
// "session_N_date_time", and "qa" holding {question, evidence: [dia_id…]}).
// The data is not in the repository (its licence is CC BY-NC); give its
// path.

type lcSample struct {
	ID           string                     `json:"sample_id"`
	QA           []lcQA                     `json:"qa"`
	Conversation map[string]json.RawMessage `json:"conversation"`
}

type lcQA struct {
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
	Category int      `json:"category"`
}

type lcTurn struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// conversations measures, for each question with evidence, the share of
// its evidence turns among the first k episodes recalled, at several k, for
// BM25 alone, the earlier hybrid (score fusion, the fixed floor of 0.40
// cutting what is returned, as `credence recall` did) and the hybrid now
// (lift fusion, `credence recall -k`: no cut).
func conversations(args []string) error {
	fs := flag.NewFlagSet("conversations", flag.ExitOnError)
	data := fs.String("data", "", "the benchmark's JSON file (LoCoMo layout)")
	ks := fs.String("k", "5,10,20,50", "result counts to measure at")
	fs.Parse(args)
	if *data == "" {
		return errors.New("conversations: -data is required")
	}
	var kk []int
	for _, f := range strings.Split(*ks, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k <= 0 {
			return fmt.Errorf("conversations: -k %q: want positive counts", *ks)
		}
		kk = append(kk, k)
	}
	raw, err := os.ReadFile(*data)
	if err != nil {
		return err
	}
	var samples []lcSample
	if err := json.Unmarshal(raw, &samples); err != nil {
		return fmt.Errorf("conversations: %s: %w", *data, err)
	}
	emb, err := embed.NewStatic()
	if err != nil {
		return err
	}
	type variant struct {
		name string
		opts func(k int) recall.Options
	}
	variants := []variant{
		{"bm25", func(k int) recall.Options {
			o := recall.DefaultOptions()
			o.Mode, o.Unfiltered, o.MaxEpisodes = recall.LexicalOnly, true, k
			return o
		}},
		{"hybrid before (score fusion, floor)", func(k int) recall.Options {
			o := recall.DefaultOptions()
			o.Fusion, o.CoverageWeight, o.RelevanceFloor, o.LexicalFloor, o.MaxEpisodes = recall.ScoreFusion, 0.25, 0.40, 0.6, k
			return o
		}},
		{"hybrid now (lift fusion, -k)", func(k int) recall.Options {
			o := recall.DefaultOptions()
			o.Unfiltered, o.MaxEpisodes = true, k
			return o
		}},
	}
	sum := make([][]float64, len(variants))
	got := make([][]float64, len(variants))
	for i := range variants {
		sum[i], got[i] = make([]float64, len(kk)), make([]float64, len(kk))
	}
	questions := 0
	ctx := context.Background()
	for si, s := range samples {
		dir, err := os.MkdirTemp("", "credence-conversations-")
		if err != nil {
			return err
		}
		db, idOf, err := loadConversation(ctx, filepath.Join(dir, "c.db"), s, emb)
		if err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("conversation %d: %w", si, err)
		}
		for _, qa := range s.QA {
			rel := map[string]bool{}
			for _, ev := range qa.Evidence {
				for _, id := range strings.Split(ev, ";") { // a few list two turns in one string
					if epID, ok := idOf[strings.TrimSpace(id)]; ok {
						rel[epID] = true
					}
				}
			}
			if len(rel) == 0 {
				continue
			}
			questions++
			for vi, v := range variants {
				for ki, k := range kk {
					r := &recall.Recaller{DB: db, Embedder: emb, Opts: v.opts(k)}
					res, err := r.Recall(ctx, recall.Query{Text: qa.Question})
					if err != nil {
						db.Close()
						os.RemoveAll(dir)
						return err
					}
					hit := 0
					for i, e := range res.Episodes {
						if i < k && rel[e.ID] {
							hit++
						}
					}
					sum[vi][ki] += float64(hit) / float64(len(rel))
					got[vi][ki] += float64(len(res.Episodes))
				}
			}
		}
		db.Close()
		os.RemoveAll(dir)
	}
	if questions == 0 {
		return errors.New("conversations: no question with evidence")
	}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("%d conversations, %d questions with evidence; evidence recall@k (episodes returned); load average %s",
		len(samples), questions, load)
	for vi, v := range variants {
		line := ""
		for ki, k := range kk {
			line += fmt.Sprintf("  @%d %.3f (%.1f)", k, sum[vi][ki]/float64(questions), got[vi][ki]/float64(questions))
		}
		fmt.Printf("%-36s%s\n", v.name, line)
	}
	return nil
}

// loadConversation stores every turn of a sample as an episode ("Speaker:
// text", dated by its session), embeds and sketches them, and returns the
// database with the episode ID of each dia_id.
func loadConversation(ctx context.Context, path string, s lcSample, emb embed.Embedder) (*store.DB, map[string]string, error) {
	var sessions []int
	for key := range s.Conversation {
		if m := sessionKey.FindStringSubmatch(key); m != nil {
			n, _ := strconv.Atoi(m[1])
			sessions = append(sessions, n)
		}
	}
	sort.Ints(sessions)
	var h synth.History
	at := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range sessions {
		var turns []lcTurn
		if err := json.Unmarshal(s.Conversation[fmt.Sprintf("session_%d", n)], &turns); err != nil {
			return nil, nil, fmt.Errorf("session %d: %w", n, err)
		}
		at = at.Add(24 * time.Hour)
		for i, t := range turns {
			h.Episodes = append(h.Episodes, synth.Episode{Key: t.DiaID, SessionID: fmt.Sprintf("s%d", n), Kind: store.EpisodePrompt,
				Text: t.Speaker + ": " + t.Text, CreatedAt: at.Add(time.Duration(i) * time.Minute)})
		}
	}
	db, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return nil, nil, err
	}
	idOf, err := synth.Load(ctx, db, h, synth.LoadOptions{Embedder: emb, NoVectorIndex: true})
	if err == nil {
		var sp store.Space
		if sp, err = db.EnsureSpace(ctx, emb.ID(), emb.Dim()); err == nil {
			_, err = recall.SyncSketches(ctx, db, sp, 0)
		}
	}
	if err != nil {
		return nil, nil, errors.Join(err, db.Close())
	}
	return db, idOf, nil
}
