package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/credence-mem/credence/internal/plural"
	"github.com/credence-mem/credence/promote"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/redact"
	"github.com/credence-mem/credence/store"
	"github.com/credence-mem/credence/transcript"
)

func init() {
	Register(Command{
		Name:    "import",
		Usage:   "[--dir path] [--no-memory-files] [--json]",
		Summary: "backfill episodes from every past Claude Code transcript (~/.claude/projects), redacted, skipping what the hooks already stored, and read Claude Code's memory files",
		Run:     runImport,
	})
}

// importReport sums up an import.
type importReport struct {
	Transcripts int `json:"transcripts"`
	Exchanges   int `json:"exchanges"`
	Imported    int `json:"imported"`
	Known       int `json:"already_known"`
	Redacted    int `json:"redacted"`
	// MemoryFiles counts Claude Code's memory files read (new or changed),
	// MemoryClaims the claims they gave evidence for.
	MemoryFiles  int      `json:"memory_files"`
	MemoryKnown  int      `json:"memory_files_known"`
	MemoryClaims int      `json:"memory_claims"`
	Failed       []string `json:"failed,omitempty"`
}

func runImport(env *Env, args []string) int {
	fset := env.Flags("import")
	dir := fset.String("dir", "", "directory of transcripts to import (default: Claude Code's projects directory)")
	noNotes := fset.Bool("no-memory-files", false, "do not read Claude Code's memory files (~/.claude/projects/<key>/memory/*.md)")
	asJSON := fset.Bool("json", false, "print the summary as JSON")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() != 0 {
		fset.Usage()
		return 2
	}
	cfg, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("import", err)
	}
	defer db.Close()
	root := *dir
	if root == "" {
		root = cfg.Paths.ClaudeProjects
	}
	files, err := transcriptFiles(root)
	if err != nil {
		return env.Fail("import", err)
	}
	rep := importReport{Transcripts: len(files)}
	bar := newProgressBar(env, "importing", len(files))
	for _, f := range files {
		if err := importTranscript(env.Ctx, db, f, &rep); err != nil {
			rep.Failed = append(rep.Failed, fmt.Sprintf("%s: %v", f, err))
		}
		bar.Add(1, fmt.Sprintf("%d new, %d known", rep.Imported, rep.Known))
	}
	bar.Finish()
	if !*noNotes && cfg.Memory.IngestClaudeMemory && *dir == "" {
		// After the transcripts, so the projects they name are known.
		p := promote.New(db, cfg, promote.Options{})
		st, err := p.IngestAll(env.Ctx, promote.AuthorModel)
		rep.MemoryFiles, rep.MemoryKnown, rep.MemoryClaims = st.Files, st.Unchanged, st.Claims
		if err != nil {
			rep.Failed = append(rep.Failed, err.Error())
		}
	}
	if *asJSON {
		if code := env.JSON(rep); code != 0 {
			return code
		}
	} else {
		env.Printf("read %s under %s: %s, %d imported, %d already stored\n",
			plural.Count(rep.Transcripts, "transcript"), root, plural.Count(rep.Exchanges, "exchange"), rep.Imported, rep.Known)
		if rep.MemoryFiles+rep.MemoryKnown > 0 {
			env.Printf("read %s of Claude Code's (%d already known): %s\n",
				plural.Count(rep.MemoryFiles, "new memory file"), rep.MemoryKnown, plural.Count(rep.MemoryClaims, "claim"))
		}
		if rep.Redacted > 0 {
			env.Printf("removed secrets from %d of them before storing\n", rep.Redacted)
		}
		if rep.Imported > 0 {
			env.Printf("the agent turns them into beliefs at its next cycle; run `credence consolidate` to do it now\n")
		}
		for _, f := range rep.Failed {
			fmt.Fprintf(env.Stderr, "credence import: %s\n", f)
		}
	}
	if len(rep.Failed) > 0 {
		return 1
	}
	return 0
}

// transcriptFiles lists the session transcripts under root: the *.jsonl
// files in each project directory, in a stable order. A missing root is an
// empty list (Claude Code has not run yet).
func transcriptFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && path == root {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			// Sessions live one level down (projects/<key>/<session>.jsonl);
			// deeper directories hold subagent sidechains, which the
			// transcript reader skips anyway.
			if rel, _ := filepath.Rel(root, path); rel != "." && filepath.Dir(rel) != "." {
				return fs.SkipDir
			}
			return nil
		}
		if filepath.Ext(path) == ".jsonl" && filepath.Dir(path) != root {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list transcripts in %s: %w", root, err)
	}
	sort.Strings(files)
	return files, nil
}

// importTranscript stores the complete exchanges of one transcript as
// import episodes keyed like the hooks key them, in one transaction.
func importTranscript(ctx context.Context, db *store.DB, path string, rep *importReport) error {
	exchanges, _, err := transcript.ReadFile(ctx, path, 0)
	if err != nil {
		return err
	}
	// Redact before taking the write lock: the hooks wait on it.
	episodes := make([]store.Episode, len(exchanges))
	redacted := make([]bool, len(exchanges))
	for i, ex := range exchanges {
		text := ex.Text()
		clean := redact.String(text)
		redacted[i] = clean != text
		root := recall.ProjectRoot(ex.Cwd)
		episodes[i] = store.Episode{
			SessionID:   ex.SessionID,
			ProjectPath: root,
			Scope:       recall.PlaceScope(root),
			Kind:        store.EpisodeImport,
			Content:     clean,
			DedupKey:    ex.Key(),
			CreatedAt:   ex.Timestamp,
		}
	}
	inserted := make([]bool, len(episodes))
	err = db.Write(ctx, func(tx *store.Tx) error {
		for i := range episodes {
			ok, err := tx.AddEpisode(ctx, &episodes[i])
			if err != nil {
				return err
			}
			inserted[i] = ok
		}
		return nil
	})
	if err != nil {
		return err
	}
	rep.Exchanges += len(exchanges)
	for i, ok := range inserted {
		switch {
		case !ok:
			rep.Known++
		case redacted[i]:
			rep.Imported++
			rep.Redacted++
		default:
			rep.Imported++
		}
	}
	return nil
}
