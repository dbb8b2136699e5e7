package recall

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/credence-mem/credence/belief"
)

// A guideline is an instruction about how to do a kind of work: "always
// follow Conventional Commits" governs writing commit messages, "never use
// npx; use pnpm dlx" scaffolding, "use snake_case for all database
// columns" schema changes. The prompt that needs it is a task of that kind
// ("write the commit message for this fix", "scaffold a new vite app",
// "add a column for the last login time") and often shares no word with
// it, so resemblance alone (the relevance rule) misses it. Recall reads
// the kinds of work a prompt asks for from a table of task topics, each
// with the cues that name it in a prompt and the cues that name it in an
// instruction, and brings the active guidelines that govern one of them.
//
// Two rules keep it from telling every prompt every rule:
//   - a topic is read only from a prompt that engages the user's own work:
//     a task (an imperative: "add …", "bump …") or a question about their
//     code ("where should I put the API key?", "how do I get my branch
//     back in sync?"); a general question ("what's the best way to learn
//     SQL joins?", "explain what a monad is") names a topic but asks for
//     knowledge, not work, and gets none;
//   - a topic's prompt cues name the work, not its subject matter in
//     passing: "write the commit message" is committing, "how do I undo
//     the last git commit" is not.

// topicBoost lifts a guideline that governs the prompt's task above what
// the prompt merely resembles (scores at most 1), below a needed slot's
// current belief (needBoost).
const topicBoost = 0.9

// maxTopicGuidelines bounds the guidelines one prompt is given by topic.
const maxTopicGuidelines = 2

// maxTopicSearch bounds the beliefs the topics' words fetch from the index.
const maxTopicSearch = 32

// taskTopic is one kind of work: prompt matches a prompt that asks for it,
// guide an instruction that governs it.
type taskTopic struct {
	name string
	// words find the guidelines that may govern the topic in the beliefs'
	// full-text index; guide then says which do.
	words         string
	prompt, guide string
}

// taskTopics is the table of kinds of work. Patterns are matched against
// lowercased text.
var taskTopics = []taskTopic{
	{"commit", "commit commits conventional",
		`\bcommit (?:msg|message)s?\b|^(?:please )?commit\b|\bcommit (?:this|these|it|that|the (?:change|fix)|my)\b|\b(?:write|make|create|prepare) (?:a|the) commit\b`,
		`\bcommits?\b|\bcommit messages?\b|\bconventional commits\b`},
	{"pull request", "pr prs pull request requests changelog approval approvals review merge merging",
		`\bprs?\b|\bpull requests?\b|\bmerge requests?\b|\bready to merge\b|\bcan i merge\b|\bwhat else (?:do|should) i (?:need|do)\b`,
		`\bprs?\b|\bpull requests?\b|\bchangelog\b|\bapprovals?\b|\bcode review\b|\bmerg(?:e|ing)\b`},
	{"writing", "spelling docs doc documentation readme prose dash dashes tone screenshot screenshots write",
		`\breadme\b|\bdocs?\b|\bdocumentation\b|\bannouncements?\b|\brelease notes\b|\bblog posts?\b|\bdraft\b|\bemails?\b|\bchangelog\b|\buser guide\b|\bwrite-?ups?\b|\bscreenshots?\b`,
		`\bspelling\b|\bdocs?\b|\bdocumentation\b|\breadme\b|\bprose\b|\bem dash(?:es)?\b|\bdashes\b|\btone\b|\bscreenshots?\b|\bwrite for me\b|\bfor me\b.*\bwrit|\bwrit\w* for me\b`},
	{"code comments", "comment comments docstring docstrings",
		`\bcomments?\b|\bdocstrings?\b|\bdocument (?:this|the)\b`,
		`\bcomments?\b|\bdocstrings?\b|\bdoc comments?\b`},
	{"schema", "column columns table tables migration migrations schema database db sql query queries sqlc orm",
		`\bcolumns?\b|\btables?\b|\bmigrations?\b|\bschema\b|\bdatabase\b|\bdb\b|\bsql\b|\bquer(?:y|ies)\b|\bindex(?:es)?\b|\bmodel\b|\borm\b`,
		`\bcolumns?\b|\btables?\b|\bmigrations?\b|\bschema\b|\bdatabase\b|\bdb\b|\bsql\b|\bquer(?:y|ies)\b|\bsqlc\b|\borm\b`},
	{"components", "component components export exports storybook story stories jsx props",
		`\bcomponents?\b|\breact\b|\bjsx\b|\btsx\b|\bvue\b|\bsvelte\b|\bwidgets?\b|\btooltip\b|\bmodal\b|\bbutton\b`,
		`\bcomponents?\b|\bexports?\b|\bstorybook\b|\bstor(?:y|ies)\b|\bjsx\b|\bprops\b`},
	{"logging", "log logs logging logger println print printf console output",
		`\blog(?:s|ging)?\b|\blogger\b|\bdebug\b|\boutput\b|\bprint(?:ln|f)?\b|\bconsole\.log\b|\btracing\b`,
		`\blog(?:s|ging|ger)?\b|\bprintln\b|\bprintf?\b|\bconsole\.log\b|\boutput\b`},
	{"dependencies", "dependency dependencies deps bump renovate dependabot vendor version versions pin caret lockfile install",
		`\bdependenc(?:y|ies)\b|\bdeps?\b|\bbump\b|\bupgrade\b|\blatest version\b|\binstall\b|\bpackages?\b|\blibrar(?:y|ies)\b|\bvendor\b|\block ?file\b|\bgo\.mod\b|\bpackage\.json\b|^add [\w.@/-]+(?: and [\w.@/-]+)? (?:to|as|in)\b`,
		`\bdependenc(?:y|ies)\b|\bdeps\b|\bbump\b|\brenovate\b|\bdependabot\b|\bvendor\b|\bversions?\b|\bpin\b|\bcaret\b|\block ?file\b|\binstall\b|\bpackage\.json\b`},
	{"scaffolding", "npx dlx scaffold scaffolding generator generators template templates",
		`\bscaffold\b|\bbootstrap\b|\bnew (?:\w+ )?(?:app|project|package|repo|service)\b|\bcreate-\w+|\bgenerator\b|\bboilerplate\b|\bstarter\b`,
		`\bnpx\b|\bdlx\b|\bscaffold\w*\b|\bcreate-\w+|\bgenerators?\b|\btemplates?\b`},
	{"tests", "test tests testing mock mocks mocking fixture fixtures testcontainers coverage race",
		`\btests?\b|\btesting\b|\bspecs?\b|\bcoverage\b|\bfixtures?\b|\bmocks?\b`,
		`\btests?\b|\btesting\b|\bmock\w*\b|\bfixtures?\b|\btestcontainers\b|\bcoverage\b|\b-race\b`},
	{"formatting", "format formatter formatting prettier lint linter indent indentation tabs spaces length characters semicolons quotes",
		`\breformat\w*\b|\bformatter\b|\bformat (?:the|this|my|all) (?:file|code|files)\b|\blint\w*\b|\bindent\w*\b|\bline length\b|\blong lines?\b|\bclean up\b|\btidy\b|\bcode style\b`,
		`\bformat\w*\b|\bprettier\b|\blint\w*\b|\bindent\w*\b|\btabs\b|\bspaces\b|\bline length\b|\bcharacters\b|\bsemicolons?\b|\bquotes\b|\bcolumns wide\b`},
	{"errors", "error errors exception exceptions panic",
		`\berrors?\b|\bexceptions?\b|\bpanics?\b`,
		`\berrors?\b|\bexceptions?\b|\bpanics?\b|%w\b`},
	{"http", "api http httpx httpclient endpoint endpoints fetch requests axios response responses route routes",
		`\bapi\b|\bhttp\b|\bendpoints?\b|\bfetch\b|\brequests?\b|\broutes?\b|\bhandlers?\b|\bwebhooks?\b|\brest\b|\bcall the\b`,
		`\bapi\b|\bhttp\w*\b|\bendpoints?\b|\bfetch\b|\brequests\b|\baxios\b|\bresponses?\b|\bnet/http\b|\broutes?\b`},
	{"dates", "date dates timestamp timestamps moment dayjs fns utc timezone luxon",
		`\bdates?\b|\btimestamps?\b|\btime ?zones?\b|\bdatetime\b|\brelative time\b|\bdays ago\b|\bcalendar\b`,
		`\bdates?\b|\btimestamps?\b|\bmoment\b|\bdayjs\b|\bdate-fns\b|\butc\b|\btime ?zones?\b|\bluxon\b`},
	{"money", "money decimal currency amount amounts price prices cents",
		`\bprices?\b|\bpricing\b|\bmoney\b|\bamounts?\b|\bcurrenc(?:y|ies)\b|\btotals?\b|\bcosts?\b|\binvoices?\b|\bpayments?\b|\bbalance\b`,
		`\bmoney\b|\bdecimal\b|\bcurrenc(?:y|ies)\b|\bamounts?\b|\bprices?\b|\bcents\b`},
	{"git branches", "branch branches push pushes rebase force main hotfix",
		`\bbranch(?:es)?\b|\bpush\b|\brebase\b|\bforce[- ]push\w*\b|\bdiverged\b|\bin sync\b|\bhotfix\b|\bmerge (?:this|my|the|main)\b`,
		`\bbranch(?:es)?\b|\bpush\w*\b|\brebase\b|\bforce[- ]push\w*\b|\bmain\b|\bhotfix\w*\b`},
	{"shell scripts", "shell bash script scripts pipefail",
		`\bscripts?\b|\bbash\b|\bshell\b|\.sh\b|\bcron\b`,
		`\bshell\b|\bbash\b|\bscripts?\b|\bpipefail\b|\bset -e\w*\b`},
	{"containers", "docker dockerfile dockerfiles container containers image images distroless stage",
		`\bdocker\w*\b|\bcontainer\w*\b|\bimages?\b|\bkubernetes\b|\bk8s\b|\bhelm\b`,
		`\bdocker\w*\b|\bcontainers?\b|\bimages?\b|\bdistroless\b|\bmulti-stage\b`},
	{"configuration", "secret secrets vault credential credentials key keys token tokens password passwords env config configuration environment",
		`\bsecrets?\b|\bapi keys?\b|\bkeys?\b|\bcredentials?\b|\btokens?\b|\bpasswords?\b|\bsettings?\b|\bconfig\w*\b|\benv\b|\.env\b|\benvironment variables?\b`,
		`\bsecrets?\b|\bvault\b|\bcredentials?\b|\bapi keys?\b|\btokens?\b|\bpasswords?\b|\.env\b|\benv\b|\benvironment variables?\b|\bconfig\w*\b`},
	{"feature flags", "flag flags toggle toggles launchdarkly unleash flagsmith",
		`\bflags?\b|\btoggles?\b|\brollout\b`,
		`\bflags?\b|\btoggles?\b|\blaunchdarkly\b|\bunleash\b|\bflagsmith\b`},
	{"releases", "version versions release releases changelog public semver cargo publish",
		`\breleases?\b|\bversion\b|\bpublish\b|\bpublic (?:api|function|method|type|interface)\b|\bcrate\b|\bwhat else (?:should|do) i (?:update|change)\b|\bsemver\b`,
		`\bversions?\b|\breleases?\b|\bchangelog\b|\bpublic api\b|\bsemver\b|\bcargo\.toml\b|\bpublish\b`},
	{"writing code", "docstring docstrings semicolons var abbreviations hints returns helper helpers naming names numbers ternary ternaries",
		`\b(?:write|add|create|implement|make|build) (?:a |an |the |some )?(?:[\w-]+ )?(?:helper|function|method|class|hook|util|utility|module)s?\b`,
		`\bdocstrings?\b|\bsemicolons?\b|\bvar\b|\babbreviations?\b|\btype hints?\b|\bearly returns?\b|\bhelpers?\b|\bnaming\b|\bvariable names?\b|\bmagic numbers?\b|\bternar(?:y|ies)\b`},
	{"editing", "reformat reformatting unrelated diff diffs changing",
		`^(?:please )?(?:fix|change|edit|tweak|refactor|rename|modify|clean up|update)\b`,
		`\breformat\w*\b|\bunrelated\b|\bfiles? you (?:are not|aren't|did not|didn't|do not|don't)\b|\bdiffs?\b|\bvariables i\b`},
	{"explaining", "explain explaining explanation explanations answer answers brief bullet bullets concise verbose",
		`^explain\b|\bexplain (?:how|why|what)\b|\bwalk me through\b|\bhow does .+ work\b`,
		`\bexplain\w*\b|\banswers?\b|\bbrief\b|\bbullet\b|\bconcise\b|\bverbose\b`},
	{"finishing", "done finish finished finishing hand back before saying telling",
		`\b(?:i'm|i am|it's|it is|i think .+ is) (?:done|finished|ready)\b|\bdouble-check\b|\bbefore (?:i|we) (?:open|ship|merge|push|commit)\b|\bwhat else (?:do|should) i\b`,
		`\bdone\b|\bfinish\w*\b|\bhand\w* (?:code |it |work )?back\b|\bbefore (?:saying|telling|you say|you tell)\b|\bbefore (?:you|i) (?:commit|push)\b`},
}

type compiledTopic struct {
	name          string
	prompt, guide *regexp.Regexp
}

var compiledTopics = sync.OnceValue(func() []compiledTopic {
	out := make([]compiledTopic, len(taskTopics))
	for i, t := range taskTopics {
		out[i] = compiledTopic{t.name, regexp.MustCompile(t.prompt), regexp.MustCompile(t.guide)}
	}
	return out
})

var (
	// generalQuestion opens a question that asks for knowledge.
	generalQuestion = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:what|what's|whats|how|why|which|when|who|is|are|does|do|can|could|should|would|explain|define|describe|tell me|teach me)\b`)
	})
	// ownWork names the person's own work or project.
	ownWork = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:i|i'm|i've|i'd|i'll|my|me|we|we're|our|us|this|these|that|here|the (?:project|repo|repository|codebase|app|service))\b`)
	})
)

// promptTopics returns the kinds of work a prompt asks for: none for a
// general question.
func promptTopics(prompt string) []int {
	p := strings.ToLower(strings.TrimSpace(cutBytes(prompt, 600)))
	if p == "" {
		return nil
	}
	if generalQuestion().MatchString(p) && !ownWork().MatchString(p) {
		return nil
	}
	var out []int
	for i, t := range compiledTopics() {
		if t.prompt.MatchString(p) {
			out = append(out, i)
		}
	}
	return out
}

// guideTopics reports how many of the topics an instruction governs.
func guideTopics(statement string, topics []int) int {
	st := strings.ToLower(statement)
	n := 0
	all := compiledTopics()
	for _, i := range topics {
		if all[i].guide.MatchString(st) {
			n++
		}
	}
	return n
}

// topicCandidates returns the active, visible, confident guidelines that
// govern a kind of work the prompt asks for, best first, at most
// maxTopicGuidelines, each lifted by topicBoost.
func (s *search) topicCandidates(ctx context.Context, p belief.Params, turn int64) ([]*beliefCandidate, error) {
	if !s.q.AsOf.IsZero() || s.r.Opts.MaxBeliefs <= 0 {
		return nil, nil
	}
	topics := promptTopics(s.q.Text)
	if len(topics) == 0 {
		return nil, nil
	}
	// The index finds the beliefs that name a topic's words (a few
	// milliseconds on a long history, unlike reading every guideline);
	// the topic's patterns then say which guidelines govern it.
	var ws []string
	seen := map[string]bool{}
	for _, i := range topics {
		for _, w := range strings.Fields(taskTopics[i].words) {
			if !seen[w] {
				seen[w] = true
				ws = append(ws, w)
			}
		}
	}
	bs, err := s.searchBeliefRows(ctx, ws, maxTopicSearch)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	type scored struct {
		c   *beliefCandidate
		n   int
		cov float64
	}
	var found []scored
	for _, b := range bs {
		if b.Kind != belief.KindGuideline || b.Status != belief.Active || !s.visible(b.Scope, b.ProjectPath) {
			continue
		}
		n := guideTopics(b.Statement, topics)
		if n == 0 {
			continue
		}
		c := &beliefCandidate{b: b, raw: b.Confidence(p, s.now, turn)}
		c.conf = c.raw
		if c.conf < s.r.Opts.MinConfidence {
			continue
		}
		c.strength = s.retrievalStrength(b, p)
		found = append(found, scored{c, n, coverage(s.terms, b.Statement)})
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.n != b.n {
			return a.n > b.n
		}
		if a.cov != b.cov {
			return a.cov > b.cov
		}
		if a.c.conf != b.c.conf {
			return a.c.conf > b.c.conf
		}
		return a.c.b.ID < b.c.b.ID
	})
	var out []*beliefCandidate
	for i, f := range found {
		if i == maxTopicGuidelines {
			break
		}
		// More topics in common, more words in common: first.
		f.c.boost = topicBoost + 0.01*float64(f.n) + 0.01*f.cov
		out = append(out, f.c)
	}
	return out, nil
}
