package extract

import (
	"strings"
	"sync"
)

// adv matches the adverbs that may sit between a subject and its verb
// ("we have recently switched", "I mostly use").
const adv = `(?:(?:also|really|mostly|usually|generally|always|typically|just|still|now|currently|only|mainly|primarily|all|already|officially|finally|recently|exclusively|heavily|basically|personally|definitely|absolutely|normally|tend to|have|has|had|completely|fully|entirely|since|then|even)\s+)*`

// projectNouns name the project as a whole or one of its parts.
const projectNouns = `repo|repository|project|codebase|code base|app|application|service|services|monorepo|stack|product|company|org|organization|team|backend|frontend|front end|back end|api|site|website|server|ci|ci pipeline|pipeline|build|builds|tests|test suite|unit tests|e2e tests|integration tests|database|db|infra|infrastructure|deployment|deployments|deploys|cli|worker|workers|web app|mobile app|code|docs|documentation|staging|staging env|staging environment|production|production env|production environment|prod|env|environment|preview deploys|preview environments|cluster|servers|infra|data layer|persistence layer|api layer|db layer|storage layer|jobs|background jobs|job queue`

// subj captures who a statement is about: the user, the project, or a part
// of the project (a slot such as "our CI" or "the tests").
const subj = `(i|we|we all|everyone here|(?:this|the|our|my) (?:[a-z0-9.-]+ )?(?:` + projectNouns + `)|all (?:of )?(?:our |the )(?:[a-z0-9.-]+ )?(?:` + projectNouns + `)|all (?:our |the )?(?:deploys|deployments|builds|tests)|tests|builds|deploys|ci|everything)`

// subjectOpeners are the words subj can start with; the usage matchers
// return at once for any other clause.
var subjectOpeners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"i": true, "we": true, "everyone": true, "this": true, "all": true,
		"the": true, "our": true, "my": true, "tests": true, "builds": true, "deploys": true, "ci": true, "everything": true}
})

func opensWithSubject(t string) bool { return subjectOpeners()[firstWord(t)] }

// wholeProject are the nouns that mean the project itself rather than a part.
var wholeProject = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"repo": true, "repository": true, "project": true, "codebase": true, "code base": true,
		"app": true, "application": true, "stack": true, "product": true, "company": true,
		"org": true, "organization": true, "team": true, "monorepo": true, "code": true,
	}
})

// subjectRef is a parsed subject: the canonical subject and, for a part of
// the project, the slot noun ("ci", "tests", "backend").
type subjectRef struct {
	subject string
	slot    string
}

func parseSubject(s string) subjectRef {
	switch s {
	case "i":
		return subjectRef{subject: SubjectUser}
	case "we", "we all", "everyone here":
		return subjectRef{subject: SubjectProject}
	}
	s = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(s, "all "), "of "), "the ")
	_, noun, found := strings.Cut(s, " ")
	if !found {
		noun = s
	}
	if wholeProject()[noun] || wholeProject()[lastOf(noun)] {
		return subjectRef{subject: SubjectProject}
	}
	return subjectRef{subject: SubjectProject, slot: noun}
}

func lastOf(phrase string) string {
	if i := strings.LastIndexByte(phrase, ' '); i >= 0 {
		return phrase[i+1:]
	}
	return phrase
}

// hint is the tool category the slot asks for: "our CI" asks for a CI
// system, and so does "our new CI".
func (r subjectRef) hint() string {
	if c, ok := slotCategory()[r.slot]; ok {
		return c
	}
	if c, ok := slotCategory()[lastOf(r.slot)]; ok {
		return c
	}
	return partCategory()[lastOf(r.slot)]
}

// partCategory maps parts of the project that are where it runs to the
// deploy slot: "all our infra is on GCP" says where it is deployed.
var partCategory = sync.OnceValue(func() map[string]string {
	return map[string]string{"infra": catDeploy, "infrastructure": catDeploy, "servers": catDeploy,
		"cluster": catDeploy, "production": catDeploy, "prod": catDeploy, "staging": catDeploy}
})
