package promote

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/recall"
	"github.com/credence-mem/credence/redact"
	"github.com/credence-mem/credence/store"
)

// Evidence sources of memory files.
const (
	// SourceClaudeMemory is the source of evidence from a memory file the
	// model wrote, edited or deleted (assistant evidence).
	SourceClaudeMemory = "claude_memory"
	// SourcePersonMemory is the source of evidence from a memory file a
	// person wrote, edited or deleted (user evidence).
	SourcePersonMemory = "person_memory"
)

// maxMemoryFileBytes bounds what is read of one memory file.
const maxMemoryFileBytes = 256 << 10

// NoteStats counts what reading memory files did.
type NoteStats struct {
	Files     int // memory files whose change was taken in
	Unchanged int // read, and already known as they are
	Deleted   int // files gone since they were read
	Claims    int // claims given evidence for
	Weakened  int // beliefs given evidence against (claims dropped or files deleted)
	Model     int // changes attributed to the model
	Person    int // changes attributed to a person
}

func (s *NoteStats) add(o NoteStats) {
	s.Files += o.Files
	s.Unchanged += o.Unchanged
	s.Deleted += o.Deleted
	s.Claims += o.Claims
	s.Weakened += o.Weakened
	s.Model += o.Model
	s.Person += o.Person
}

// noteClaim is one claim of a memory file, ready to record.
type noteClaim struct {
	key         string
	st          store.Statement
	scope       string
	project     string
	reliability float64 // the extractor's, 1 for the file's own description
}

// IngestNote takes in the current state of one of Claude Code's memory
// files at path: a new or changed file becomes an episode of kind memory
// (its frontmatter and body) and its claims evidence, with the reliability
// of whoever wrote it (author; "" attributes it from the hook's edit log);
// a claim dropped from the file, or every claim of a deleted file, gets
// weak evidence against. A file already read as it is changes nothing.
// credence only reads the file.
func (p *Promoter) IngestNote(ctx context.Context, path string, author Author) (NoteStats, error) {
	var st NoteStats
	path = filepath.Clean(path)
	content, err := readNote(path)
	gone := errors.Is(err, fs.ErrNotExist)
	if err != nil && !gone {
		return st, err
	}
	rec, err := p.db.MemoryFile(ctx, path)
	found := err == nil
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return st, err
	}
	hash := ""
	if !gone {
		sum := sha256.Sum256(content)
		hash = hex.EncodeToString(sum[:])
		if found && rec.DeletedAt == 0 && rec.Hash == hash {
			st.Unchanged++
			return st, nil
		}
	} else if !found || rec.DeletedAt != 0 {
		return st, nil
	}
	if author == "" {
		author = p.whoEdited(path, content, gone)
	}
	if author == AuthorModel {
		st.Model++
	} else {
		st.Person++
	}
	source, rho := SourcePersonMemory, p.cfg.Memory.PersonReliability
	against := p.cfg.Memory.PersonReliability
	if author == AuthorModel {
		source, rho, against = SourceClaudeMemory, p.cfg.Memory.ModelReliability, p.cfg.Memory.DeletedReliability
	}
	if gone {
		st.Deleted++
		err := p.db.Write(ctx, func(tx *store.Tx) error {
			// Read again under the write lock: another process (an import, a
			// second agent's cycle) may have taken the deletion in already.
			if cur, err := tx.MemoryFile(ctx, path); err != nil || cur.DeletedAt != 0 {
				if err != nil && !errors.Is(err, store.ErrNotFound) {
					return err
				}
				st.Deleted, st.Weakened = 0, 0
				return nil
			}
			n, err := weaken(ctx, tx, rec.Claims, "", source, against, "memory file deleted by the "+string(author)+": "+path)
			if err != nil {
				return err
			}
			st.Weakened = n
			rec.Claims, rec.DeletedAt, rec.Author, rec.UpdatedAt = nil, p.now().UnixMilli(), string(author), p.now().UnixMilli()
			return tx.PutMemoryFile(ctx, rec)
		})
		if err == nil {
			p.log.Info("memory file deleted; its claims weakened", "path", path, "by", author, "beliefs", st.Weakened)
		}
		return st, err
	}
	note := markdown.ParseMemoryNote(content)
	project, global := p.noteProject(ctx, filepath.Dir(path))
	claims := noteClaims(note, project, global)
	for _, c := range claims {
		if c.st.Exclusive && c.st.Predicate != "" {
			if err := p.db.SetRelation(ctx, c.st.Predicate, true, "extract"); err != nil {
				return st, err
			}
		}
	}
	exclusive, err := p.db.ExclusivePredicates(ctx)
	if err != nil {
		return st, err
	}
	st.Files++
	old := map[string]string{}
	if found && rec.DeletedAt == 0 {
		old = rec.Claims
	}
	unchanged := false
	err = p.db.Write(ctx, func(tx *store.Tx) error {
		st.Claims, st.Weakened, unchanged = 0, 0, false
		// Read again under the write lock: another process may have taken
		// this version, or a newer one, in since.
		switch cur, err := tx.MemoryFile(ctx, path); {
		case err == nil && cur.DeletedAt == 0 && cur.Hash == hash:
			unchanged = true
			return nil
		case err == nil && cur.DeletedAt == 0:
			old = cur.Claims
		case err == nil:
			old = map[string]string{}
		case !errors.Is(err, store.ErrNotFound):
			return err
		}
		ep := store.Episode{Kind: store.EpisodeMemory, Content: redact.String(noteText(note)), Summary: noteSummary(note, path),
			ProjectPath: project, SessionID: "memory:" + filepath.Base(path)}
		if global || project == "" {
			ep.Scope, ep.ProjectPath = belief.ScopeGlobal, ""
		}
		if _, err := tx.AddEpisode(ctx, &ep); err != nil {
			return err
		}
		facts, _ := json.Marshal(claims)
		if _, err := tx.MarkConsolidated(ctx, store.Consolidated{EpisodeID: ep.ID, Seq: ep.Seq, State: store.ConsolidationRetired,
			Mode: "offline", Facts: string(facts), CycleID: "memory-file"}); err != nil {
			return err
		}
		next := map[string]string{}
		for _, c := range claims {
			if id, ok := old[c.key]; ok {
				next[c.key] = id // unchanged claim: counted when it was written
				continue
			}
			one, err := tx.Claim(ctx, store.ClaimInput{Statement: c.st, Scope: c.scope, Project: c.project, EpisodeID: ep.ID,
				Source: source, BeliefSource: source, Label: belief.Supports, Reliability: rho * min(1, c.reliability/0.9)},
				c.st.Exclusive || exclusive[c.st.Predicate])
			if err != nil {
				return fmt.Errorf("claim %q of %s: %w", c.st.Statement, path, err)
			}
			next[c.key] = one.ID
			st.Claims++
		}
		dropped := map[string]string{}
		for k, id := range old {
			if _, ok := next[k]; !ok {
				dropped[k] = id
			}
		}
		n, err := weaken(ctx, tx, dropped, ep.ID, source, against, "claim dropped from memory file by the "+string(author)+": "+path)
		if err != nil {
			return err
		}
		st.Weakened = n
		now := p.now().UnixMilli()
		return tx.PutMemoryFile(ctx, store.MemoryFile{Path: path, Hash: hash, EpisodeID: ep.ID, Type: note.Type,
			Author: string(author), Claims: next, UpdatedAt: now})
	})
	if err != nil {
		return st, fmt.Errorf("read memory file %s: %w", path, err)
	}
	if unchanged {
		return NoteStats{Unchanged: 1}, nil
	}
	p.log.Info("memory file read", "path", path, "by", author, "type", note.Type, "claims", st.Claims, "weakened", st.Weakened)
	return st, nil
}

// weaken records evidence against each belief of claims that still
// exists, with reliability rho; it returns how many it weakened.
func weaken(ctx context.Context, tx *store.Tx, claims map[string]string, episodeID, source string, rho float64, note string) (int, error) {
	ids := make([]string, 0, len(claims))
	for _, id := range claims {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	n := 0
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		status, err := beliefStatus(ctx, tx, id)
		if err != nil {
			return n, err
		}
		if status == "" || status == belief.Forgotten {
			continue
		}
		if _, err := tx.AddEvidence(ctx, store.Evidence{BeliefID: id, EpisodeID: episodeID, Source: source,
			Label: belief.Contradicts, Support: -1, Reliability: rho, Note: note}); err != nil {
			return n, fmt.Errorf("weaken %s: %w", id, err)
		}
		n++
	}
	return n, nil
}

// readNote reads a memory file, refusing anything but a regular file.
func readNote(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("memory file %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, min(info.Size(), maxMemoryFileBytes))
	n, err := f.Read(b)
	if err != nil && n == 0 && len(b) > 0 {
		return nil, err
	}
	return b[:n], nil
}

// noteText is a memory file as its episode stores it: a first line with
// its type and name ("Claude Code memory (project): Deploy target"), its
// description, its body.
func noteText(n markdown.MemoryNote) string {
	t := n.Type
	if t == "" {
		t = "untyped"
	}
	head := "Claude Code memory (" + t + ")"
	if n.Name != "" {
		head += ": " + n.Name
	}
	parts := []string{head}
	if n.Description != "" {
		parts = append(parts, n.Description)
	}
	if n.Body != "" {
		parts = append(parts, n.Body)
	}
	return strings.Join(parts, "\n\n")
}

// noteSummary names the file and its type, for the episode's summary.
func noteSummary(n markdown.MemoryNote, path string) string {
	t := n.Type
	if t == "" {
		t = "untyped"
	}
	return fmt.Sprintf("Claude Code memory (%s): %s", t, filepath.Base(path))
}

// noteClaims returns the claims of a memory file: what the offline
// extractor reads in its description and body, or, when it reads nothing,
// the description (else the name) as one claim. Claims about the user and
// feedback in the global memory directory are global; every other claim is
// the project's. A project claim whose project is unknown is dropped.
func noteClaims(n markdown.MemoryNote, project string, global bool) []noteClaim {
	var out []noteClaim
	seen := map[string]bool{}
	add := func(c noteClaim) {
		if c.scope == belief.ScopeProject && project == "" {
			return
		}
		c.key = markdown.StatementKey(c.st.Statement)
		if c.key == "" || seen[c.key] {
			return
		}
		seen[c.key] = true
		out = append(out, c)
	}
	scope := func(subject string) (string, string) {
		if global || (n.Type == markdown.TypeUser && subject != extract.SubjectProject) {
			return belief.ScopeGlobal, ""
		}
		return belief.ScopeProject, project
	}
	text := strings.TrimSpace(strings.Join([]string{sentence(n.Description), n.Body}, "\n"))
	for _, f := range extract.Extract(firstPersonText(text)) {
		sc, pr := scope(f.Subject)
		add(noteClaim{st: store.Statement{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object, Statement: f.Statement,
			Kind: f.Kind, Negated: f.Negated, Replaces: f.Replaces, Exclusive: f.Exclusive}, scope: sc, project: pr, reliability: f.Reliability})
	}
	if len(out) > 0 {
		return out
	}
	statement := n.Description
	if statement == "" {
		statement = n.Name
	}
	if strings.TrimSpace(statement) == "" {
		return nil
	}
	subject, kind := extract.SubjectUser, belief.KindFact
	switch n.Type {
	case markdown.TypeFeedback:
		kind = belief.KindGuideline
	case markdown.TypeProject, markdown.TypeReference:
		subject = extract.SubjectProject
	}
	sc, pr := scope(subject)
	add(noteClaim{st: store.Statement{Subject: subject, Statement: strings.TrimSpace(statement), Kind: kind}, scope: sc, project: pr, reliability: 0.9})
	return out
}

// sentence ends s with a full stop, so the extractor does not run it into
// the body.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.ContainsAny(s[len(s)-1:], ".!?") {
		return s
	}
	return s + "."
}

// noteProject finds the project a memory directory belongs to: global for
// the global memory directory; else the project whose Claude Code memory
// directory it is, among the projects credence knows (its targets, then
// the projects of stored episodes), then from the working directory the
// transcripts beside it name.
func (p *Promoter) noteProject(ctx context.Context, dir string) (project string, global bool) {
	dir = filepath.Clean(dir)
	if dir == filepath.Clean(filepath.Dir(p.cfg.Paths.GlobalMemory)) {
		return "", true
	}
	memDir := func(root string) string {
		return filepath.Dir(markdown.ClaudeProjectMemoryPath(p.cfg.Paths.ClaudeProjects, p.cfg.Paths.Home, root, p.cfg.Memory.AutoMemoryDirectory))
	}
	p.mu.Lock()
	for path, t := range p.targets {
		if filepath.Dir(path) == dir && len(t.projects) > 0 {
			p.mu.Unlock()
			return t.projects[0], false
		}
	}
	p.mu.Unlock()
	if projects, err := p.db.EpisodeProjects(ctx); err == nil {
		for _, root := range projects {
			if memDir(root) == dir {
				return root, false
			}
		}
	}
	if cwd := transcriptCwd(filepath.Dir(dir)); cwd != "" {
		if root := recall.ProjectRoot(cwd); root != "" && memDir(root) == dir {
			return root, false
		}
	}
	return "", false
}

// transcriptCwd returns the working directory the newest transcript in a
// Claude Code project directory records, or "".
func transcriptCwd(keyDir string) string {
	entries, err := os.ReadDir(keyDir)
	if err != nil {
		return ""
	}
	type cand struct {
		path string
		mod  int64
	}
	var cands []cand
	for _, e := range entries {
		if e.Type().IsRegular() && strings.HasSuffix(e.Name(), ".jsonl") {
			if info, err := e.Info(); err == nil {
				cands = append(cands, cand{filepath.Join(keyDir, e.Name()), info.ModTime().UnixNano()})
			}
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].mod > cands[j].mod })
	for _, c := range cands[:min(len(cands), 3)] {
		if cwd := firstCwd(c.path); cwd != "" {
			return cwd
		}
	}
	return ""
}

// firstCwd reads the first "cwd" of a transcript's first 200 lines.
func firstCwd(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for i := 0; i < 200 && sc.Scan(); i++ {
		var line struct {
			Cwd string `json:"cwd"`
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && filepath.IsAbs(line.Cwd) {
			return line.Cwd
		}
	}
	return ""
}

// userSentenceRe matches a sentence that starts with "User" or "The user"
// (as Claude Code writes its memories, in the third person) and the word
// after it: the verb to put in the first person.
var userSentenceRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)(^\s*[-*]\s+|^|[.!?]\s+)(?:[Tt]he )?[Uu]ser(?:'s\b|\s+(\w+(?:n't)?))`)
})

// firstPersonText rewrites the memory's sentences about "the user" in the
// first person ("User prefers pnpm" → "I prefer pnpm"), the form the
// offline extractor reads people's own words in, so a memory file's claim
// lands in the same slot as the person saying it.
func firstPersonText(text string) string {
	return userSentenceRe().ReplaceAllStringFunc(text, func(m string) string {
		sub := userSentenceRe().FindStringSubmatch(m)
		lead, verb := sub[1], sub[2]
		if verb == "" { // "User's …"
			return lead + "My"
		}
		return lead + "I " + firstPersonVerb(verb)
	})
}

// firstPersonVerb turns a third-person verb into the first person.
func firstPersonVerb(v string) string {
	lower := strings.ToLower(v)
	switch lower {
	case "is":
		return "am"
	case "isn't":
		return "am not"
	case "has":
		return "have"
	case "hasn't":
		return "haven't"
	case "does":
		return "do"
	case "doesn't":
		return "don't"
	case "was", "wasn't", "can", "can't", "will", "won't", "should", "shouldn't", "would", "must", "may", "might", "never", "always", "often", "usually", "also", "now", "still", "only", "just":
		return v
	}
	switch {
	case strings.HasSuffix(lower, "ies") && len(lower) > 4:
		return v[:len(v)-3] + "y"
	case strings.HasSuffix(lower, "sses"), strings.HasSuffix(lower, "shes"), strings.HasSuffix(lower, "ches"),
		strings.HasSuffix(lower, "xes"), strings.HasSuffix(lower, "zes"), strings.HasSuffix(lower, "oes"):
		return v[:len(v)-2]
	case strings.HasSuffix(lower, "s") && !strings.HasSuffix(lower, "ss") && len(lower) > 2:
		return v[:len(v)-1]
	}
	return v
}
