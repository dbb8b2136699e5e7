package cli

import (
	"fmt"
	"strings"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/card"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/ids"
	"github.com/credence-mem/credence/redact"
	"github.com/credence-mem/credence/store"
)

func init() {
	Register(Command{
		Name:    "remember",
		Usage:   `[--project | --global] [--json] "text"`,
		Summary: "tell credence something directly: a user-sourced belief with full reliability (MANUAL evidence)",
		Run:     runRemember,
	})
}

func runRemember(env *Env, args []string) int {
	fs := env.Flags("remember")
	project := fs.Bool("project", false, "the statement holds for the current project (default for statements about the project)")
	global := fs.Bool("global", false, "the statement holds everywhere (default for statements about you)")
	asJSON := fs.Bool("json", false, "print the beliefs as JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" || (*project && *global) {
		fs.Usage()
		return 2
	}
	clean := redact.String(text)
	if clean != text {
		fmt.Fprintln(env.Stderr, "credence remember: a secret in the text was replaced before storing it")
	}
	in := rememberInput(clean, *project, *global, workingProject(env))
	in.SessionID, in.Source = "cli", "cli"
	_, db, err := openDatabase(env)
	if err != nil {
		return env.Fail("remember", err)
	}
	defer db.Close()
	res, err := db.Remember(env.Ctx, in)
	if err != nil {
		return env.Fail("remember", err)
	}
	if *asJSON {
		return env.JSON(struct {
			EpisodeID string            `json:"episode_id"`
			Beliefs   []card.Remembered `json:"beliefs"`
		}{res.EpisodeID, card.RememberedOf(res.Beliefs)})
	}
	for _, b := range res.Beliefs {
		verb := "reinforced"
		if b.Created {
			verb = "created"
		}
		env.Printf("%s %s [%.2f] %s\n", verb, ids.Short(b.ID), b.Confidence, b.Statement)
		for _, c := range b.Contradicted {
			env.Printf("  contradicted %s\n", ids.Short(c))
		}
	}
	where := "everywhere"
	if in.Scope == belief.ScopeProject {
		where = "in " + in.Project
	}
	env.Printf("(recorded as note %s; applies %s)\n", ids.Short(res.EpisodeID), where)
	return 0
}

// rememberInput splits a user's statement into triples with the offline
// extractor (the text itself under subject "user" when it finds none) and
// picks the scope: the flags when given, else project scope for statements
// about the project and global scope for the rest.
func rememberInput(text string, project, global bool, cwdProject string) store.RememberInput {
	var sts []store.Statement
	aboutProject := false
	for _, f := range extract.Extract(text) {
		sts = append(sts, store.Statement{Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
			Statement: f.Statement, Kind: f.Kind, Negated: f.Negated, Replaces: f.Replaces, Exclusive: f.Exclusive})
		aboutProject = aboutProject || f.Subject == extract.SubjectProject
	}
	if len(sts) == 0 {
		sts = []store.Statement{{Subject: extract.SubjectUser, Statement: text, Kind: belief.KindFact}}
	}
	scope := belief.ScopeGlobal
	if project || (!global && aboutProject && cwdProject != "") {
		scope = belief.ScopeProject
	}
	in := store.RememberInput{Text: text, Statements: sts, Scope: scope}
	if scope == belief.ScopeProject {
		in.Project = cwdProject
	}
	return in
}
