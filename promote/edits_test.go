package promote

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// removeLine deletes the line holding text from a file, as a person would.
func (e *env) removeLine(path, text string) {
	e.t.Helper()
	doc := e.read(path)
	var out []string
	found := false
	for _, line := range strings.SplitAfter(doc, "\n") {
		if strings.Contains(line, text) {
			found = true
			continue
		}
		out = append(out, line)
	}
	if !found {
		e.t.Fatalf("no line with %q in %s:\n%s", text, path, doc)
	}
	e.write(path, strings.Join(out, ""))
}

// addUnder inserts a bullet right below a heading, as a person would.
func (e *env) addUnder(path, heading, bullet string) {
	e.t.Helper()
	doc := e.read(path)
	i := strings.Index(doc, heading+"\n\n")
	if i < 0 && strings.HasPrefix(doc, markdown.BeginMarker+"\n") {
		// An empty section is the markers alone: the person writes the
		// heading too.
		at := len(markdown.BeginMarker) + 1
		e.write(path, doc[:at]+heading+"\n\n"+bullet+"\n\n"+doc[at:])
		return
	}
	if i < 0 {
		e.t.Fatalf("no %q in %s:\n%s", heading, path, doc)
	}
	at := i + len(heading) + 2
	e.write(path, doc[:at]+bullet+"\n"+doc[at:])
}

// userEdits returns a belief's evidence from MEMORY.md edits.
func (e *env) userEdits(id string) []store.Evidence {
	e.t.Helper()
	evs, err := e.db.Evidence(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []store.Evidence
	for _, ev := range evs {
		if ev.Source == memorySource {
			out = append(out, ev)
		}
	}
	return out
}

func TestPersonDeletesPromotedBullet(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	gone := e.global("User likes long explanations", 4, 0) // 0.83
	kept := e.global("User writes Go", 4, 0)
	e.promote()

	e.removeLine(path, "User likes long explanations")
	st := e.promote()
	if st.UserDeleted != 1 {
		t.Fatalf("Stats.UserDeleted=%d, want 1", st.UserDeleted)
	}
	b := e.get(gone)
	if b.Status != belief.Rejected || b.PromotedAt != 0 {
		t.Fatalf("status=%s promoted_at=%d, want rejected and unmarked", b.Status, b.PromotedAt)
	}
	edits := e.userEdits(gone)
	if len(edits) != 1 || edits[0].Label != belief.UserEdit || edits[0].Support != -1 || edits[0].Reliability != 1 {
		t.Fatalf("memory.md evidence %+v, want one USER_EDIT with s=-1, ρ=1", edits)
	}
	if strings.Contains(e.read(path), "long explanations") || !e.under(path, markdown.HeadingBeliefs, "User writes Go") {
		t.Fatalf("file after the deletion:\n%s", e.read(path))
	}
	if len(e.userEdits(kept)) != 0 {
		t.Fatalf("the untouched belief got memory.md evidence")
	}

	// Still 5/7 ≈ 0.71 with evidence 5: reactivating it without new evidence
	// must not bring it back, and the deletion is never counted twice.
	e.mark(gone, belief.Reactivate)
	e.promote()
	if strings.Contains(e.read(path), "long explanations") {
		t.Fatalf("re-promoted by the same evidence:\n%s", e.read(path))
	}
	if n := len(e.userEdits(gone)); n != 1 {
		t.Fatalf("%d memory.md evidence rows, want 1", n)
	}

	// New supporting evidence after the edit lets it back in.
	e.evidence(gone, 1, 0)
	e.promote()
	if !e.under(path, markdown.HeadingBeliefs, "User likes long explanations") {
		t.Fatalf("not promoted after new evidence:\n%s", e.read(path))
	}
}

func TestPersonAddsBullet(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	e.global("User writes Go", 4, 0)
	e.promote()

	e.addUnder(path, markdown.HeadingBeliefs, "- User prefers tabs over spaces")
	st := e.promote()
	if st.UserAdded != 1 {
		t.Fatalf("Stats.UserAdded=%d, want 1", st.UserAdded)
	}
	bs, err := e.db.Beliefs(e.ctx, store.Filter{Subject: "user", Predicate: "prefers"})
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 1 {
		t.Fatalf("%d beliefs (user, prefers, …), want 1", len(bs))
	}
	b := bs[0]
	if b.Statement != "User prefers tabs over spaces" || b.Object != "tabs" || !b.Pinned || b.Source != userSource ||
		b.Scope != belief.ScopeGlobal || b.Status != belief.Active {
		t.Fatalf("added belief %+v", b.State)
	}
	if ev := e.userEdits(b.ID); len(ev) != 1 || ev[0].Label != belief.Manual || ev[0].Support != 1 {
		t.Fatalf("memory.md evidence %+v, want one MANUAL with s=+1", ev)
	}
	want := "- User prefers tabs over spaces (confidence: 0.67, evidence: 1)"
	if line := e.bulletLine(path, "tabs over spaces"); line != want {
		t.Fatalf("bullet %q, want %q", line, want)
	}

	// The next cycles neither duplicate it nor drop it.
	e.promote()
	e.promote()
	if all, _ := e.db.Beliefs(e.ctx, store.Filter{Subject: "user", Predicate: "prefers"}); len(all) != 1 {
		t.Fatalf("%d beliefs after more cycles, want 1", len(all))
	}
	if !e.under(path, markdown.HeadingBeliefs, "User prefers tabs over spaces") {
		t.Fatalf("the person's bullet was dropped:\n%s", e.read(path))
	}
}

// A bullet a person adds back after deleting it adopts the rejected belief
// rather than creating a duplicate.
func TestPersonReAddsDeletedBullet(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	id := e.global("User uses Neovim", 4, 0)
	e.promote()
	e.removeLine(path, "User uses Neovim")
	e.promote()
	if e.get(id).Status != belief.Rejected {
		t.Fatalf("not rejected after the deletion")
	}
	e.addUnder(path, markdown.HeadingBeliefs, "- user uses neovim")
	if st := e.promote(); st.UserAdded != 1 {
		t.Fatalf("Stats.UserAdded=%d, want 1", st.UserAdded)
	}
	b := e.get(id)
	if b.Status != belief.Active || !b.Pinned || b.PromotedAt == 0 {
		t.Fatalf("status=%s pinned=%v promoted_at=%d, want the old belief active, pinned and promoted", b.Status, b.Pinned, b.PromotedAt)
	}
	counts, err := e.db.CountBeliefs(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if counts[belief.Active] != 1 || len(counts) != 1 {
		t.Fatalf("belief counts %v, want the one belief", counts)
	}
}

// A crash between writing the file and confirming the write leaves a
// pending record; a bullet the new section dropped is then not a deletion.
func TestPendingWriteIsNoDeletion(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	a := e.global("User reads the changelog", 4, 0)
	b := e.global("User pairs on Tuesdays", 4, 0)
	e.promote()

	// Simulate: a cycle decided to show only b, recorded that as pending,
	// wrote the file, and died before confirming.
	row, err := e.db.MemorySection(e.ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var written markdown.Section
	if err := json.Unmarshal([]byte(row.Section), &written); err != nil {
		t.Fatal(err)
	}
	var onlyB markdown.Section
	for _, en := range written.Beliefs {
		if en.ID == b {
			onlyB.Beliefs = append(onlyB.Beliefs, en)
		}
	}
	pending, _ := json.Marshal(onlyB)
	row.Pending = string(pending)
	if err := e.db.PutMemorySection(e.ctx, row); err != nil {
		t.Fatal(err)
	}
	doc, err := markdown.Splice([]byte(e.read(path)), markdown.RenderSection(onlyB))
	if err != nil {
		t.Fatal(err)
	}
	e.write(path, string(doc))

	if st := e.promote(); st.UserDeleted != 0 {
		t.Fatalf("Stats.UserDeleted=%d after a crash, want 0", st.UserDeleted)
	}
	if got := e.get(a); got.Status != belief.Active || len(e.userEdits(a)) != 0 {
		t.Fatalf("status=%s with %d memory.md evidence: a crash was taken for a deletion", got.Status, len(e.userEdits(a)))
	}
	if !e.under(path, markdown.HeadingBeliefs, "User reads the changelog") {
		t.Fatalf("belief not shown again:\n%s", e.read(path))
	}
}

// Lines a person types under ## Former Beliefs are not lost: a new one
// becomes a belief, and a former bullet with its figures edited away stays
// the former belief it was.
func TestPersonEditsFormerBeliefs(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	id := e.global("User deploys on Fridays", 4, 0)
	e.promote()
	e.evidence(id, 0, 2) // → Former
	e.promote()
	doc := e.read(path)
	line := e.bulletLine(path, "User deploys on Fridays")
	doc = strings.Replace(doc, line, "- [NO LONGER TRUE] User deploys on Fridays", 1)
	doc = strings.Replace(doc, markdown.HeadingFormer+"\n\n", markdown.HeadingFormer+"\n\n- User stopped using Heroku\n", 1)
	e.write(path, doc)

	st := e.promote()
	if st.UserAdded != 1 || st.UserDeleted != 0 {
		t.Fatalf("Stats.UserAdded=%d UserDeleted=%d, want 1 and 0", st.UserAdded, st.UserDeleted)
	}
	if got := e.bulletLine(path, "User deploys on Fridays"); got != line {
		t.Fatalf("former bullet %q, want it restored to %q", got, line)
	}
	if b := e.get(id); b.DemotedAt == 0 {
		t.Fatalf("former belief lost its marks")
	}
	if !e.under(path, markdown.HeadingBeliefs, "User stopped using Heroku") {
		t.Fatalf("the person's line is gone:\n%s", e.read(path))
	}
}

// A person's bullet wins its exclusive group: the rival is superseded and
// shown as no longer true instead of both being contested and hidden.
func TestPersonBulletWinsExclusiveGroup(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	tokyo := e.belief(belief.Spec{Statement: "User lives in Tokyo", Subject: "user", Predicate: "lives_in",
		Object: "tokyo", Scope: belief.ScopeGlobal}, 9, 0)
	e.promote()
	e.addUnder(path, markdown.HeadingBeliefs, "- User lives in Lisbon")
	e.promote()
	if !e.under(path, markdown.HeadingBeliefs, "User lives in Lisbon") {
		t.Fatalf("the person's bullet is not under ## Beliefs:\n%s", e.read(path))
	}
	if line := e.bulletLine(path, "Tokyo"); !strings.HasPrefix(line, "- [NO LONGER TRUE] User lives in Tokyo → now Lisbon (was: 0.91, now: 0.83") {
		t.Fatalf("rival bullet %q, want it no longer true", line)
	}
	if b := e.get(tokyo); b.Status != belief.Superseded || len(e.userEdits(tokyo)) != 1 {
		t.Fatalf("rival status=%s with %d memory.md evidence, want superseded with one", b.Status, len(e.userEdits(tokyo)))
	}
}

// A person's edit landing between reading a file and writing it stops the
// write; the next sync reads the edit back instead of overwriting it.
func TestEditDuringWriteIsReadBack(t *testing.T) {
	e := newEnv(t, nil)
	path := e.cfg.Paths.GlobalMemory
	gone := e.global("User hates tabs", 4, 0)
	e.global("User writes Go", 4, 0)
	e.promote()
	newcomer := e.global("User reads man pages", 5, 0)

	a, err := e.p.assessment(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := e.p.db.MemorySection(e.ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := loadRecord(path, &rec)
	if err != nil {
		t.Fatal(err)
	}
	tg := &target{path: path, global: true, createDir: true}
	j, err := e.p.prepare(e.ctx, tg, r, &a)
	if err != nil || !j.write {
		t.Fatalf("prepare: write=%v err=%v, want a write for the newcomer", j.write, err)
	}
	e.removeLine(path, "User hates tabs") // the person, just now
	before := e.read(path)
	e.p.writeFile(e.ctx, j)
	if !j.stale || e.read(path) != before {
		t.Fatalf("stale=%v; the write went through over the person's edit:\n%s", j.stale, e.read(path))
	}
	if _, err := e.p.syncTarget(e.ctx, tg, j.rec, &a); err != nil {
		t.Fatal(err)
	}
	if e.get(gone).Status != belief.Rejected || strings.Contains(e.read(path), "hates tabs") {
		t.Fatalf("the deletion was not read back:\n%s", e.read(path))
	}
	if e.get(newcomer).PromotedAt == 0 || !e.under(path, markdown.HeadingBeliefs, "User reads man pages") {
		t.Fatalf("the newcomer was not written:\n%s", e.read(path))
	}
}
