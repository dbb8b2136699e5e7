package extract

import (
	"os"
	"strings"
	"testing"
)

// devFile is the development set of issue 14: the same schema as the
// frozen held-out set, written by hand before the corrections, changes and
// directives were built, and tuned on since.
const devFile = "testdata/dev2026.jsonl"

// Floors for the development set: it was tuned on, so its numbers flatter
// the patterns; the floors catch a regression, the held-out set says how
// good they are.
const (
	devPrecision = 0.9
	devRecall    = 0.8
)

func TestDev2026(t *testing.T) { scoreDev(t, devFile, 150, devPrecision, devRecall) }

// devFileB is the second development set, written fresh before the second
// round of extraction work (issue 14, item 5) and committed before any of
// that tuning, so its first numbers are an honest baseline.
const devFileB = "testdata/dev2026b.jsonl"

// Floors for the second development set; it is tuned on since its
// baseline was recorded, so they too only catch a regression.
const (
	devBPrecision = 0.9
	devBRecall    = 0.8
)

func TestDev2026b(t *testing.T) { scoreDev(t, devFileB, 150, devBPrecision, devBRecall) }

// scoreDev scores a development set of at least minCases cases, logs its
// per-category table with its misses and spurious extractions, and asserts
// the floors.
func scoreDev(t *testing.T, devFile string, minCases int, devPrecision, devRecall float64) {
	cases := loadCases(t, devFile)
	if len(cases) < minCases {
		t.Fatalf("%s has %d cases, want at least %d", devFile, len(cases), minCases)
	}
	none := 0
	for _, c := range cases {
		if len(c.Expect) == 0 {
			none++
		}
	}
	if 10*none < 3*len(cases) {
		t.Fatalf("%s has %d of %d cases with nothing to extract, want at least 30 %%", devFile, none, len(cases))
	}
	bare := scoreSet(cases, alone)
	withCtx := scoreSet(cases, inContext)
	t.Log("\n" + bare.table("development set ("+devFile+"), utterance alone (Extract)") +
		withCtx.table("development set ("+devFile+"), with the conversation's earlier utterances (ExtractWith)"))
	t.Log("misses:\n  " + strings.Join(withCtx.misses, "\n  "))
	t.Log("spurious:\n  " + strings.Join(withCtx.spurious, "\n  "))
	withCtx.check(t, devPrecision, devRecall)
}

// devFileC is the third development set, written fresh before the third
// round of extraction work (issue 14) in the styles the first two
// under-cover — non-native word order, terse chat, buried facts,
// future-dated changes, bare corrections after context turns, guidelines
// as complaints and questions, team rules — with near-miss traps such as
// "the lib uses reflection". It was committed with its baseline before any
// tuning.
const devFileC = "testdata/dev2026c.jsonl"

// Floors for the third development set. Its baseline is in
// docs/EXTRACTION.md; it was tuned on since, so the floors only catch a
// regression.
const (
	devCPrecision = 0.95
	devCRecall    = 0.85
)

func TestDev2026c(t *testing.T) { scoreDev(t, devFileC, 150, devCPrecision, devCRecall) }

// devFileDFacts is a fourth development set: project and personal facts
// outside the first taxonomy (state management, styling, ORM, queue,
// infrastructure as code, build tool, Kubernetes namespace and cluster,
// error tracker, observability, feature flags, secrets, i18n, warehouse)
// and personal ones (machine, preferred language, tenure, relocation),
// with near-miss traps that name those tools in passing. Written before
// the facts work was tuned and committed with its baseline.
const devFileDFacts = "testdata/dev2026d_facts.jsonl"

// factSlots are the slots of the fourth set beyond heldoutSlots; each is
// reconciled with the extractor's predicates like the others
// (slotPredicates).
var factSlots = []string{"uses_state_management", "uses_styling", "uses_orm", "uses_queue", "uses_iac",
	"uses_build_tool", "k8s_namespace", "k8s_cluster", "uses_error_tracker", "uses_observability",
	"uses_feature_flags", "uses_secrets_store", "uses_i18n", "uses_warehouse", "uses_data_pipeline",
	"uses_os", "line_length", "tech_lead"}

// devFileDInstr is a fourth development set, instructions only: guidelines in
// the phrasings the first three miss (wishes, reasons, complaints, "from
// now on", "going forward", "make sure to", "don't ever", team rules) and
// near-miss traps (one-turn requests, tasks and questions that say always
// or never in passing). It was committed with its baseline before any
// tuning against it.
const devFileDInstr = "testdata/dev2026d_instr.jsonl"

// Floors for the fourth development sets (the targets); each was
// tuned on once its baseline was recorded, so they only catch a regression.
const (
	devDPrecision = 0.9
	devDRecall    = 0.88
)

func TestDev2026dInstr(t *testing.T) { scoreDev(t, devFileDInstr, 60, devDPrecision, devDRecall) }

// devFileDChange is a fourth development set, changes and corrections only
// (relocations, new employers, pronoun hand-overs, "X is gone", "goodbye
// X", renames, "as of today", bumps) with near misses such as "should we
// switch to bun?". It was committed with its baseline before the change
// round's tuning.
const devFileDChange = "testdata/dev2026d_change.jsonl"

func TestDev2026dChange(t *testing.T) { scoreDev(t, devFileDChange, 60, devDPrecision, devDRecall) }

func TestDev2026dFacts(t *testing.T) { scoreDev(t, devFileDFacts, 60, devDPrecision, devDRecall) }

// devFileETalk is a fifth development set (session 5, engineer TALK):
// changes, corrections, directives and guidelines in the voice of Claude
// Code users, with near misses (questions, hypotheticals, other teams'
// rules, one-off requests). It was written and committed with its baseline
// (docs/rounds/2026-11-26-talk.md) before any tuning against it.
const devFileETalk = "testdata/dev2026e_talk.jsonl"

// Floors for the fifth talk set: its tuned numbers (with context 0.94 /
// 0.87 overall after session 5, 0.97 / 0.92 after session 7, every
// category at least 0.94 / 0.86; baseline 0.85 / 0.52,
// docs/rounds/2026-11-26-talk.md) minus a margin.
const (
	devETalkPrecision = 0.9
	devETalkRecall    = 0.82
)

func TestDev2026eTalk(t *testing.T) {
	scoreDev(t, devFileETalk, 100, devETalkPrecision, devETalkRecall)
}

// devFileEFacts is the fifth development set (session 5): personal and
// project facts in the forms people use (open slots such as "my wife is
// Ingrid", "X is my daughter", appositives, "I have a beagle named …",
// "we keep sessions in Redis", asides inside task requests) and near
// misses (questions about facts, hypotheticals, other people's things,
// quoted text, code edits that name fact words). Written before the
// session's facts tuning and committed with its baseline; its header
// admits open slots.
const devFileEFacts = "testdata/dev2026e_facts.jsonl"

// Floors for the fifth set: its numbers at the end of session 7 (0.73 /
// 0.46; 0.71 / 0.44 after session 5) less a margin, so a regression
// fails. Its precision is low by
// vocabulary, not by error: most unmatched extractions are right facts
// under another slot name than the blind labels chose ("beagle" for
// "dog", "staging_is" for "staging_url", has_meeting for "standup"); none
// of its 44 negatives gives anything.
const (
	devEPrecision = 0.7
	devERecall    = 0.44
)

func TestDev2026eFacts(t *testing.T) { scoreDev(t, devFileEFacts, 100, devEPrecision, devERecall) }

// checkFileEFacts and checkFileETalk were the session-5 check sets,
// written blind by one engineer for another and scored in aggregate only
// (with context 0.87 / 0.58 and 0.94 / 0.72 at their retirement). Session
// 7 retired them to development sets: their misses are read and tuned on.
const (
	checkFileEFacts = "testdata/check2026e_facts.jsonl"
	checkFileETalk  = "testdata/check2026e_talk.jsonl"
)

// Floors for the retired check sets: at retirement (session 7) they
// scored 0.87 / 0.58 (facts) and 0.94 / 0.72 (talk) with context; tuned
// on since, to 0.89 / 0.89 and 0.95 / 0.95 (every category of talk at
// least 0.92 / 0.83); the floors are those less a margin.
const (
	checkEFactsPrecision = 0.86
	checkEFactsRecall    = 0.85
	checkETalkPrecision  = 0.9
	checkETalkRecall     = 0.8
)

func TestDev2026eCheckFacts(t *testing.T) {
	scoreDev(t, checkFileEFacts, 60, checkEFactsPrecision, checkEFactsRecall)
}

func TestDev2026eCheckTalk(t *testing.T) {
	scoreDev(t, checkFileETalk, 60, checkETalkPrecision, checkETalkRecall)
}

// devFileH is the session-8 development set, written by hand before the
// session's tuning: guidelines (imperatives, "we always/never …", "prefer
// X over Y", conventions told as facts, hedged rules, rules inside task
// requests), changes and corrections in wording the earlier sets do not
// use, and 45 cases with nothing to extract (questions, requests,
// hypotheticals, quoted and reported speech, task-local imperatives).
// Baseline with context 0.83 / 0.72 (guideline recall 0.62, correction
// recall 0.70); after the session-8 tuning 0.97 / 0.98, every category at
// least 0.94 / 0.95.
const devFileH = "testdata/dev2026h.jsonl"

// Floors for dev set h, per category: its score after the session-8
// tuning less a margin.
const (
	devHPrecision = 0.9
	devHRecall    = 0.9
)

func TestDev2026h(t *testing.T) { scoreDev(t, devFileH, 120, devHPrecision, devHRecall) }

// checkFileF was the session-7/8 check set (136 utterances written blind
// by another engineer), scored four times in aggregate (0.90 / 0.76 with
// context at its last run) and retired to a development set in session
// 9, which read its misses per case and built the readings of
// docs/EXTRACTION.md "Session 9" on them (0.96 / 0.95 after; every
// category at least 0.85 / 0.79).
const checkFileF = "testdata/check2026f.jsonl"

// Floors for the retired check set f: its session-9 numbers less a
// margin, overall and for each category.
const (
	checkFPrecision    = 0.93
	checkFRecall       = 0.91
	checkFCatPrecision = 0.8
	checkFCatRecall    = 0.75
)

func TestDev2026CheckF(t *testing.T) {
	scoreRetiredCheck(t, checkFileF, 130, checkFPrecision, checkFRecall, checkFCatPrecision, checkFCatRecall)
}

// scoreRetiredCheck scores a retired check set with context against its
// floors, overall (precision, recall) and for each category (catP,
// catR), after checking it still holds at least minCases utterances.
func scoreRetiredCheck(t *testing.T, file string, minCases int, precision, recall, catP, catR float64) {
	t.Helper()
	scoreInContext(t, "retired check set", file, minCases, precision, recall, catP, catR)
}

// scoreInContext scores a set of the given kind with context against its
// floors, overall and for each category.
func scoreInContext(t *testing.T, kind, file string, minCases int, precision, recall, catP, catR float64) {
	t.Helper()
	cases := loadCases(t, file)
	if len(cases) < minCases {
		t.Fatalf("%s has %d cases, want at least %d", file, len(cases), minCases)
	}
	s := scoreSet(cases, inContext)
	t.Log("\n" + s.table(kind+" ("+file+"), with context"))
	if p := s.total.precision(); p < precision {
		t.Errorf("overall precision %.2f; floor %.2f", p, precision)
	}
	if r := s.total.recall(); r < recall {
		t.Errorf("overall recall %.2f; floor %.2f", r, recall)
	}
	s.check(t, catP, catR)
}

// checkFileG was the session-9 check set (140 utterances written blind
// by a fresh engineer), scored four times in aggregate (0.90 / 0.81 with
// context at its last run) and retired to a development set in session
// 10, which read its misses per case and built the readings of
// docs/EXTRACTION.md "Session 10" on them (0.95 / 0.98 after; every
// category at least 0.93 / 0.95).
const checkFileG = "testdata/check2026g.jsonl"

// Floors for the retired check set g: its session-10 numbers less a
// margin, overall and for each category.
const (
	checkGPrecision    = 0.92
	checkGRecall       = 0.93
	checkGCatPrecision = 0.85
	checkGCatRecall    = 0.85
)

func TestDev2026CheckG(t *testing.T) {
	scoreRetiredCheck(t, checkFileG, 135, checkGPrecision, checkGRecall, checkGCatPrecision, checkGCatRecall)
}

// TestDevMisses prints the per-category table, misses and spurious
// extractions of one development set named by CREDENCE_DEV_MISSES_FILE,
// for reading while tuning. It refuses the frozen held-out set and any
// check set still kept blind (a file whose first line is not a "dev"
// header).
func TestDevMisses(t *testing.T) {
	file := os.Getenv("CREDENCE_DEV_MISSES_FILE")
	if file == "" {
		t.Skip("set CREDENCE_DEV_MISSES_FILE to a development set to list its misses")
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(raw), "\n")
	if file == heldoutFile || !strings.Contains(first, `"dev"`) {
		t.Fatalf("%s is not a development set (its first line has no \"dev\" header); its cases must not be read", file)
	}
	cases := loadCases(t, file)
	withCtx := scoreSet(cases, inContext)
	t.Log("\n" + withCtx.table(file+", with context"))
	t.Log("misses:\n  " + strings.Join(withCtx.misses, "\n  "))
	t.Log("spurious:\n  " + strings.Join(withCtx.spurious, "\n  "))
}

// devFileIScen holds the utterances whose facts the scenario dev sets of
// session 10 (scenarios_check8, scenarios_dev9_where) lost at extraction,
// written down by the lead (0.50 / 0.17 with context before session 10's
// readings, 0.67 / 0.22 after). Session 11 read it per case and built
// readings on it (docs/EXTRACTION.md "Session 11"): 1.00 / 0.83 after.
const devFileIScen = "testdata/dev2026i_scen.jsonl"

// devFileKScen holds what the retired scenario sets scenarios_check9 and
// scenarios_dev10_change lost at extraction or left stale (a change not
// read), written by EXT11 in session 11 from the per-case reading of the
// lead's run, with near misses of its own that expect nothing: 0.50 /
// 0.19 with context at the session's start, 1.00 / 0.94 after.
const devFileKScen = "testdata/dev2026k_scen.jsonl"

// Floors for the scenario dev sets: their session-11 numbers less a
// margin. They are small, so one case moves a category by a third; the
// per-category floors are loose.
const (
	devScenPrecision    = 0.9
	devIScenRecall      = 0.78
	devKScenRecall      = 0.88
	devScenCatPrecision = 0.8
	devScenCatRecall    = 0.5
)

func TestDev2026iScen(t *testing.T) {
	scoreRetiredCheck(t, devFileIScen, 17, devScenPrecision, devIScenRecall, devScenCatPrecision, devScenCatRecall)
}

func TestDev2026kScen(t *testing.T) {
	scoreRetiredCheck(t, devFileKScen, 25, devScenPrecision, devKScenRecall, devScenCatPrecision, devScenCatRecall)
}

// devFileM is the development set of session 12 (EXT12): facts, changes,
// corrections and rules in the shapes the retired scenario set
// scenarios_check10 lost, in EXT12's own words and styles, with near
// misses; written and scored (0.92 / 0.52 with context) before any of
// that session's tuning, 0.98 / 0.98 after.
const devFileM = "testdata/dev2026m.jsonl"

// Floors for dev2026m: its session-12 numbers less a margin (they hold
// for each category too, and one case moves a small category by a
// tenth); it was tuned on since its baseline, so they only catch a
// regression.
const (
	devMPrecision = 0.85
	devMRecall    = 0.85
)

func TestDev2026m(t *testing.T) { scoreDev(t, devFileM, 80, devMPrecision, devMRecall) }
