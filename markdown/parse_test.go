package markdown

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseSection(t *testing.T) {
	doc := BeginMarker + `
## Beliefs

- User prefers Bun over Node.js (confidence: 0.85, evidence: 7)
- \# Hash-led statement (contested, confidence: 0.60, evidence: 4)
- Added by hand
  across two lines
* star bullet

## Former Beliefs

- [NO LONGER TRUE] Dark mode everywhere (was: 0.78, now: 0.45, demoted: 2026-02-20)
- [UNCERTAIN] Tabs (was: 0.72, now: 0.66, demoted: 2026-03-01)

## My own heading

- mine
` + "```\n- not a bullet\n```\n" + EndMarker + "\n# Notes\n"

	p, ok := ParseSection([]byte(doc))
	if !ok {
		t.Fatal("ParseSection() found no section")
	}
	if !p.Damaged {
		t.Error("ParseSection().Damaged = false, want true: a heading of the person's sits inside the section and the next write moves it out")
	}
	var headings []string
	for _, g := range p.Groups {
		headings = append(headings, fmt.Sprintf("%s known=%v n=%d", g.Heading, g.Known, len(g.Bullets)))
	}
	wantHeadings := "[## Beliefs known=true n=4 ## Former Beliefs known=true n=2 ## My own heading known=false n=1]"
	if fmt.Sprint(headings) != wantHeadings {
		t.Errorf("groups = %v, want %v", headings, wantHeadings)
	}

	beliefs := p.Bullets(HeadingBeliefs)
	tests := []struct {
		name string
		got  Bullet
		want Bullet
	}{
		{"generated belief", beliefs[0], Bullet{Raw: "- User prefers Bun over Node.js (confidence: 0.85, evidence: 7)", Statement: "User prefers Bun over Node.js", Kind: BulletBelief, Confidence: 0.85, Evidence: 7}},
		{"escaped contested belief", beliefs[1], Bullet{Raw: `- \# Hash-led statement (contested, confidence: 0.60, evidence: 4)`, Statement: "# Hash-led statement", Kind: BulletBelief, Confidence: 0.6, Evidence: 4, Contested: true}},
		{"user bullet over two lines", beliefs[2], Bullet{Raw: "- Added by hand\n  across two lines", Statement: "Added by hand across two lines"}},
		{"star bullet", beliefs[3], Bullet{Raw: "* star bullet", Statement: "star bullet"}},
		{"former", p.Bullets(HeadingFormer)[0], Bullet{Raw: "- [NO LONGER TRUE] Dark mode everywhere (was: 0.78, now: 0.45, demoted: 2026-02-20)", Statement: "Dark mode everywhere", Kind: BulletFormer, Was: 0.78, Now: 0.45, Demoted: time.Date(2026, 2, 20, 0, 0, 0, 0, time.UTC), NoLongerTrue: true}},
		{"uncertain former", p.Bullets(HeadingFormer)[1], Bullet{Raw: "- [UNCERTAIN] Tabs (was: 0.72, now: 0.66, demoted: 2026-03-01)", Statement: "Tabs", Kind: BulletFormer, Was: 0.72, Now: 0.66, Demoted: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("bullet =\n%+v\nwant\n%+v", tt.got, tt.want)
			}
			if tt.got.Generated() != (tt.want.Kind != BulletUser) {
				t.Errorf("Generated() = %v for kind %d", tt.got.Generated(), tt.got.Kind)
			}
		})
	}
}

func TestParseSectionDamage(t *testing.T) {
	tests := []struct {
		name        string
		doc         string
		ok, damaged bool
	}{
		{"no section", "# Notes\n", false, true},
		{"sound", secA + "x\n", true, false},
		{"below front matter is sound", "---\na: 1\n---\n" + secA, true, false},
		{"moved down", "x\n" + secA, true, true},
		{"two sections", secA + secA, true, true},
		{"lone END after", secA + EndMarker + "\n", true, true},
		{"only BEGIN", BeginMarker + "\n## Beliefs\n", false, true},
		{"orphaned generated run below", secA + "\n## Beliefs\n- x (confidence: 0.90, evidence: 3)\n", true, true},
		{"markers in code do not count", "```\n" + secA + "```\n", false, true},
		{"a bullet added under ## Beliefs is not damage", strings.Replace(secA, "\n\n"+EndMarker, "\n- typed by a person\n\n"+EndMarker, 1), true, false},
		{"a paragraph typed inside the section is", strings.Replace(secA, "\n\n"+EndMarker, "\n\nA paragraph.\n\n"+EndMarker, 1), true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := ParseSection([]byte(tt.doc))
			if ok != tt.ok || p.Damaged != tt.damaged {
				t.Errorf("ParseSection() ok=%v damaged=%v, want ok=%v damaged=%v", ok, p.Damaged, tt.ok, tt.damaged)
			}
		})
	}
}

func TestDiffSection(t *testing.T) {
	rendered := Section{
		Beliefs:    []Entry{{ID: "bl_1", Statement: "Uses Bun"}, {ID: "bl_2", Statement: "Deploys on Fly"}, {ID: "bl_3", Statement: "# Rust for tools"}},
		Guidelines: []Entry{{ID: "bl_4", Statement: "Run tests first"}},
		Former:     []FormerEntry{{ID: "bl_5", Statement: "Uses npm", Date: demoted}},
	}
	tests := []struct {
		name                         string
		doc                          string
		deleted, deletedFormer, adds string
	}{
		{"unchanged", RenderSection(rendered), "[]", "[]", "[]"},
		{"figures edited is not a deletion", BeginMarker + "\n## Beliefs\n- Uses Bun (confidence: 0.10, evidence: 1)\n- deploys on fly\n- \\# Rust for tools (confidence: 0.8, evidence: 3)\n## Behavioral Guidelines\n- Run tests first\n## Former Beliefs\n- Uses npm\n" + EndMarker + "\n",
			"[]", "[]", "[]"},
		{"person deleted a belief and a former belief", BeginMarker + "\n## Beliefs\n- Uses Bun (confidence: 0.85, evidence: 7)\n- # Rust for tools\n## Behavioral Guidelines\n- Run tests first\n" + EndMarker + "\n",
			"[bl_2]", "[bl_5]", "[]"},
		{"person added beliefs and a guideline", BeginMarker + "\n## Beliefs\n- Uses Bun\n- Deploys on Fly\n- # Rust for tools\n- Prefers tabs\n- Prefers tabs\n## Behavioral Guidelines\n- Run tests first\n- Never force-push\n## Notes\n- not under a credence heading\n## Former Beliefs\n- Uses npm\n" + EndMarker + "\n",
			"[]", "[]", "[Prefers tabs/false Never force-push/true]"},
		{"edited statement is a deletion and an addition", BeginMarker + "\n## Beliefs\n- Uses Bun and pnpm\n- Deploys on Fly\n- # Rust for tools\n## Behavioral Guidelines\n- Run tests first\n## Former Beliefs\n- Uses npm\n" + EndMarker + "\n",
			"[bl_1]", "[]", "[Uses Bun and pnpm/false]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := ParseSection([]byte(tt.doc))
			if !ok {
				t.Fatal("ParseSection() found no section")
			}
			c := DiffSection(rendered, p)
			var deleted, deletedFormer, adds []string
			for _, e := range c.Deleted {
				deleted = append(deleted, e.ID)
			}
			for _, f := range c.DeletedFormer {
				deletedFormer = append(deletedFormer, f.ID)
			}
			for _, a := range c.Added {
				adds = append(adds, fmt.Sprintf("%s/%v", a.Statement, a.Guideline))
			}
			if got := fmt.Sprint(deleted); got != tt.deleted {
				t.Errorf("Deleted = %s, want %s", got, tt.deleted)
			}
			if got := fmt.Sprint(deletedFormer); got != tt.deletedFormer {
				t.Errorf("DeletedFormer = %s, want %s", got, tt.deletedFormer)
			}
			if got := fmt.Sprint(adds); got != tt.adds {
				t.Errorf("Added = %s, want %s", got, tt.adds)
			}
		})
	}
}
