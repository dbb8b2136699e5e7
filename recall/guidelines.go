package recall

import (
	"context"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/credence-mem/credence/belief"
	"github.com/credence-mem/credence/extract"
	"github.com/credence-mem/credence/relations"
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

// maxBroadSearch bounds the guidelines fetched for a prompt without a
// topic, where only a rule on the form of replies or on writing code can
// govern it.
const maxBroadSearch = 12

// taskTopic is one kind of work: prompt matches a prompt that asks for it,
// guide an instruction that governs it.
type taskTopic struct {
	name string
	// words find the guidelines that may govern the topic in the beliefs'
	// full-text index; guide then says which do.
	words         string
	prompt, guide string
}

// askedTopics are the kinds of work a general question asks for too:
// "what's a good library for PDFs?" asks for a suggestion.
var askedTopics = map[string]bool{"suggesting": true}

// taskTopics is the table of kinds of work. Patterns are matched against
// lowercased text.
var taskTopics = []taskTopic{
	{"commit", "commit commits conventional",
		`\bcommit (?:msg|message)s?\b|^(?:please )?commit\b|\bcommit (?:this|these|it|that|the (?:change|fix)|my)\b|\b(?:write|make|create|prepare) (?:a|the) commit\b|\bsave my work\b|\bcheckpoint (?:my|this|the) work\b`,
		`\bcommits?\b|\bcommit messages?\b|\bconventional commits\b`},
	{"pull request", "pr prs pull request requests changelog approval approvals review merge merging",
		`\bprs?\b|\bpull requests?\b|\bmerge requests?\b|\bready to merge\b|\bcan i merge\b|\bwhat else (?:do|should) i (?:need|do)\b|\bwrap (?:this|it) up\b|\bfor merging\b|\bget (?:this|it) merged\b|\brequest (?:a )?reviews?\b|\bask (?:\w+ )?for (?:a )?review\b|\bwho (?:should|do|can|will) (?:i |we )?(?:ask to )?review\b|\bwho reviews\b|\breview from\b|\bget (?:it|this|them) reviewed\b`,
		`\bprs?\b|\bpull requests?\b|\bchangelog\b|\bapprovals?\b|\bcode review\b|\bmerg(?:e|ing)\b`},
	{"writing", "spelling docs doc documentation readme prose dash dashes tone screenshot screenshots write",
		`\breadme\b|\bdocs?\b|\bdocumentation\b|\bannouncements?\b|\brelease notes\b|\bblog posts?\b|\bdraft\b|\bemails?\b|\bchangelog\b|\buser guide\b|\bwrite-?ups?\b|\bscreenshots?\b`,
		`\bspelling\b|\bdocs?\b|\bdocumentation\b|\breadme\b|\bprose\b|\bem dash(?:es)?\b|\bdashes\b|\btone\b|\bscreenshots?\b|\bwrite for me\b|\bfor me\b.*\bwrit|\bwrit\w* for me\b`},
	{"code comments", "comment comments docstring docstrings",
		`\bcomments?\b|\bdocstrings?\b|\bdocument (?:this|the)\b`,
		`\bcomments?\b|\bdocstrings?\b|\bdoc comments?\b`},
	{"schema", "column columns table tables migration migrations schema database db sql query queries sqlc orm",
		`\bcolumns?\b|\btables?\b|\bmigrations?\b|\bschema\b|\bdatabase\b|\bdb\b|\bsql\b|\bquer(?:y|ies)\b|\bindex(?:es)?\b|\bmodel\b|\borm\b|\badd (?:a|an|the) (?:new )?field\b|` + lookupTask,
		`\bcolumns?\b|\btables?\b|\bmigrations?\b|\bschema\b|\bdatabase\b|\bdb\b|\bsql\b|\bquer(?:y|ies)\b|\bsqlc\b|\borm\b`},
	{"components", "component components export exports storybook story stories jsx props",
		`\bcomponents?\b|\breact\b|\bjsx\b|\btsx\b|\bvue\b|\bsvelte\b|\bwidgets?\b|\btooltip\b|\bmodal\b|\bbutton\b`,
		`\bcomponents?\b|\bexports?\b|\bstorybook\b|\bstor(?:y|ies)\b|\bjsx\b|\bprops\b`},
	{"logging", "log logs logging logger println print printf console output",
		`\blog(?:s|ging)?\b|\blogger\b|\bdebug\b|\bfigure out why\b|\btrack down\b|\binvestigate\b|\boutput\b|\bprint(?:ln|f)?\b|\bconsole\.log\b|\btracing\b`,
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
		`\bapi\b|\bhttp\b|\bendpoints?\b|\bfetch\b|\brequests?\b|\broutes?\b|\bhandlers?\b|\bwebhooks?\b|\brest\b|\bcall the\b|\b(?:http |api )?clients?\b|\bretr(?:y|ies)\b|\btimeouts?\b|\boutbound\b|\bupstream\b|\b(?:get|post|put|patch|delete) /|\bquery (?:params?|parameters?|strings?)\b|(?:^|\s)/api/`,
		`\bapi\b|\bhttp\w*\b|\bendpoints?\b|\bfetch\b|\brequests\b|\baxios\b|\bresponses?\b|\bnet/http\b|\broutes?\b`},
	{"dates", "date dates timestamp timestamps moment dayjs fns utc timezone luxon",
		`\bdates?\b|\btimestamps?\b|\btime ?zones?\b|\bdatetime\b|\brelative time\b|\bdays ago\b|\bcalendar\b|\b(?:appointment|booking|meeting|event|start|end|delivery|pickup|due|arrival|departure|reminder|expiry|expiration|opening|closing) ?times?\b|\b[a-z]+_(?:at|on|date|time|ts)\b|\bwhen (?:the|a|an|it|they|he|she)(?: \w+){0,3} (?:was|were|got|last|should|will|is due|needs to|has to)\b|\b(?:store|save|record|track|remember|persist|keep) (?:when|what time|the time)\b`,
		`\bdates?\b|\btimestamps?\b|\bmoment\b|\bdayjs\b|\bdate-fns\b|\butc\b|\btime ?zones?\b|\bluxon\b`},
	{"money", "money decimal currency amount amounts price prices cents",
		`\bprices?\b|\bpricing\b|\bmoney\b|\bamounts?\b|\bcurrenc(?:y|ies)\b|\btotals?\b|\bcosts?\b|\binvoices?\b|\bpayments?\b|\bbalance\b|\bbudget\w*\b|\bhow much (?:should|would|will|do|does|is|are) (?:i|it|a|an|we)\b|\bafford\b`,
		`\bmoney\b|\bdecimal\b|\bcurrenc(?:y|ies)\b|\bamounts?\b|\bprices?\b|\bcents\b`},
	{"git branches", "branch branches push pushes rebase force main hotfix",
		`\bbranch(?:es)?\b|\bpush\b|\brebase\b|\bforce[- ]push\w*\b|\bdiverged\b|\bin sync\b|\bhotfix\b|\bmerge (?:this|my|the|main)\b|\b(?:up )?(?:on|to) the remote\b|\bupstream\b|\bto (?:github|gitlab|origin)\b`,
		`\bbranch(?:es)?\b|\bpush\w*\b|\brebase\b|\bforce[- ]push\w*\b|\bmain\b|\bhotfix\w*\b`},
	{"shell scripts", "shell bash script scripts pipefail",
		`\bscripts?\b|\bbash\b|\bshell\b|\.sh\b|\bcron\b`,
		`\bshell\b|\bbash\b|\bscripts?\b|\bpipefail\b|\bset -e\w*\b`},
	{"containers", "docker dockerfile dockerfiles container containers image images distroless stage",
		`\bdocker\w*\b|\bcontainer\w*\b|\bimages?\b|\bkubernetes\b|\bk8s\b|\bhelm\b`,
		`\bdocker\w*\b|\bcontainers?\b|\bimages?\b|\bdistroless\b|\bmulti-stage\b`},
	{"configuration", "secret secrets vault credential credentials key keys token tokens password passwords env config configuration environment",
		`\bsecrets?\b|\bapi keys?\b|\bkeys?\b|\bcredentials?\b|\btokens?\b|\bpasswords?\b|\bsettings?\b|\bconfig\w*\b|\benv\b|\.env\b|\benvironment variables?\b|\bconnect (?:\w+ ){0,3}to (?:\w+ ){0,3}(?:server|database|db|api|service|bucket|queue|account|cluster)\b|\bsmtp\b`,
		`\bsecrets?\b|\bvault\b|\bcredentials?\b|\bapi keys?\b|\btokens?\b|\bpasswords?\b|\.env\b|\benv\b|\benvironment variables?\b|\bconfig\w*\b`},
	{"feature flags", "flag flags toggle toggles launchdarkly unleash flagsmith",
		`\bflags?\b|\btoggles?\b|\brollout\b`,
		`\bflags?\b|\btoggles?\b|\blaunchdarkly\b|\bunleash\b|\bflagsmith\b`},
	{"releases", "version versions release releases changelog public semver cargo publish",
		`\breleases?\b|\bversion\b|\bpublish\b|\bpublic (?:api|function|method|type|interface)\b|\bcrate\b|\bwhat else (?:should|do) i (?:update|change)\b|\bsemver\b`,
		`\bversions?\b|\breleases?\b|\bchangelog\b|\bpublic api\b|\bsemver\b|\bcargo\.toml\b|\bpublish\b`},
	{"writing code", "docstring docstrings function functions method methods lines semicolons var abbreviations hints returns helper helpers naming names numbers ternary ternaries",
		`\b(?:write|add|create|implement|make|build) (?:a |an |the |some )?(?:[\w-]+ )?(?:helper|function|method|class|hook|util|utility|module|importer|exporter|parser|scraper|loader|validator|converter|wrapper|script|command)s?\b|\bbreak (?:it|this|that|them) (?:up|down)\b|\bsplit (?:it|this|that) up\b|\b\d+ lines\b`,
		`\bdocstrings?\b|\bfunctions?\b|\bmethods?\b|\b\d+ lines\b|\bsemicolons?\b|\bvar\b|\babbreviations?\b|\btype hints?\b|\bearly returns?\b|\bhelpers?\b|\bnaming\b|\bvariable names?\b|\bmagic numbers?\b|\bternar(?:y|ies)\b`},
	{"design", "composition inheritance inherit subclass subclasses interface interfaces hierarchy",
		`\bmodel (?:\w+ )*?(?:as|with)\b|\bkinds? of\b|\bsubclass\w*\b|\binherit\w*\b|\bclass hierarch\w*\b|\bbase class\b`,
		`\bcomposition\b|\binheritance\b|\binherit\w*\b|\bsubclass\w*\b|\bclass hierarch\w*\b|\bbase class\w*\b`},
	{"editing", "reformat reformatting unrelated diff diffs changing",
		`^(?:please )?(?:fix|change|edit|tweak|refactor|rename|modify|clean up|update)\b`,
		`\breformat\w*\b|\bunrelated\b|\bfiles? you (?:are not|aren't|did not|didn't|do not|don't)\b|\bdiffs?\b|\bvariables i\b`},
	{"explaining", "explain explaining explanation explanations answer answers brief bullet bullets concise verbose",
		`^explain\b|\bexplain (?:how|why|what)\b|\bwalk me through\b|\bhow does .+ work\b`,
		`\bexplain\w*\b|\banswers?\b|\bbrief\b|\bbullet\b|\bconcise\b|\bverbose\b`},
	{"searching code", "search searching grep rg ripgrep find",
		`^(?:please )?(?:find|search|grep|locate|list)\b|\b(?:find|search for|look for|grep for|locate) (?:all|every|each|any|the)\b|\bwhere (?:is|are|do|does) (?:we|it|this|the)\b|\bwho calls\b|\b(?:usages?|callers|call sites|occurrences|references) of\b`,
		`\bsearch\w*\b|\bgrep\b|\brg\b|\bripgrep\b|\bag\b|\bfind\b`},
	{"infrastructure", "terraform pulumi cdk infra infrastructure apply plan instances cluster provision cloudformation ansible",
		`\bterraform\b|\bpulumi\b|\binstances?\b|\binfra\w*\b|\bprovision\w*\b|\bclusters?\b|\bbuckets?\b|\bnode pools?\b|\bworker pools?\b|\bvpcs?\b|\bload balancers?\b|\bscal(?:e|ing) (?:up|down|out)\b|\bautoscal\w*\b`,
		`\bterraform\b|\bpulumi\b|\bcdk\b|\binfra\w*\b|\bcloudformation\b|\bansible\b|\binstances?\b|\bprovision\w*\b|\bapply\b`},
	{"local setup", "local locally compose tilt devcontainer dev environment setup",
		`\blocal(?:ly)?\b|\bon my (?:machine|laptop)\b|\bdev (?:env|environment|setup|server|stack)\b|\bspin (?:up|it up)\b`,
		`\blocal(?:ly)?\b|\bdocker[- ]compose\b|\bcompose files?\b|\btilt\b|\bdevcontainers?\b|\bdev (?:env|environment|setup|server|stack)\b`},
	{"styling", "style styles styling css tailwind classes inline scss sass theme",
		`\bstyl(?:e|es|ing)\b|\bcss\b|\bcolou?rs?\b|\blayout\b|\bresponsive\b|\bdark mode\b|\btheme\b|\bpadding\b|\bmargins?\b|\bfonts?\b|\bcent(?:er|re)\b`,
		`\bstyl(?:e|es|ing)\b|\bcss\b|\btailwind\b|\butility classes\b|\binline styles?\b|\bscss\b|\bsass\b|\bstyled-components\b|\btheme\b`},
	{"deploying", "deploy deploys deployment deploying prod production ship release rollout staging friday fridays",
		`\bdeploy\w*\b|\bship (?:it|this|the)\b|\bgo live\b|\bto prod(?:uction)?\b|\broll (?:it |this )?out\b|\brollout\b|\bhotfix\b`,
		`\bdeploy\w*\b|\bprod(?:uction)?\b|\bship\w*\b|\brollouts?\b|\bstaging\b|\bfridays?\b|\brelease (?:train|window)\b`},
	// a request for a suggestion (a library, a tool, a name): the rules on
	// what the assistant says when it suggests one
	{"suggesting", "suggest suggests suggesting recommend recommends recommending library libraries package packages tool tools license",
		`\b(?:good|best|decent|solid|popular|recommended|recommend|suggest|suggestions?|which|any|alternatives?|need|looking for|know (?:of )?(?:a|any))\b.*\b(?:librar(?:y|ies)|packages?|crates?|gems?|modules?|frameworks?|sdks?|plugins?|extensions?|tools?)\b`,
		`\b(?:when(?:ever)?|if|before) you (?:suggest|recommend|propose|pick|choose|add|pull in) (?:a |an |any |new |the )?(?:\w+ )?(?:librar(?:y|ies)|packages?|tools?|dependenc(?:y|ies)|crates?|gems?|frameworks?|modules?)\b|\b(?:suggest\w*|recommend\w*|propos\w*) (?:a |an |any |new )?(?:librar(?:y|ies)|packages?|tools?|dependenc(?:y|ies)|crates?|gems?|frameworks?)\b`},
	// the work is done and the person asks what comes next: the rules on
	// saying so (run the checks first) and on handing it over (a PR, a
	// review, where to push)
	{"finishing", "done finish finished finishing hand back before saying telling pr push review",
		`\b(?:i'm|i am|it's|it is|i think .+ is) (?:done|finished|ready)\b|\b(?:i've|i have|we've|we have) (?:finished|done|completed|wrapped up)\b|\b(?:fix|change|changes|feature|refactor|work|branch|pr|it|this) (?:is|are) (?:done|finished|ready|complete)\b|\bgood to go\b|\bready to (?:ship|merge|push|go)\b|\b(?:done|finished|fixed|works)\b.*\bwhat(?:'s| is)? (?:now|next)\b|\bdouble-check\b|\bbefore (?:i|we) (?:open|ship|merge|push|commit)\b|\bwhat else (?:do|should) i\b|\bship (?:it|this)\b|\blooks good\b|\blgtm\b|\bland (?:it|this)\b|\bgood to merge\b|\bwrap(?:ping)? (?:this |it |things )?up\b|\b(?:it|this|that) works now\b|\bconfirm (?:it|that it|this) works\b`,
		`\bdone\b|\bfinish\w*\b|\bhand\w* (?:code |it |work )?back\b|\bbefore (?:saying|telling|you say|you tell)\b|\bbefore (?:you|i) (?:commit|push)\b|\bprs?\b|\bpull requests?\b|\bpush\w*\b|\bfor review\b|\breviewers?\b|\bcode review\b|\bapprov\w*\b`},
}

// lookupTask reads code that finds stored records by what they hold: "a
// function that searches products by name", "looks up customers by
// email", "fetches all orders for a given user". Such code queries the
// data store, so the rules on queries govern it.
const lookupTask = `\b(?:search(?:es|ing)?|find(?:s|ing)?|look(?:s|ing)? up|fetch(?:es|ing)?|get(?:s|ting)?|load(?:s|ing)?|list(?:s|ing)?|filter(?:s|ing)?|retriev(?:e|es|ing)|quer(?:y|ies|ying)) (?:all |every |the |a |an )?(?:\w+ ){0,2}(?:by|for|with|matching) (?:a |an |the |their |its |each |one )?(?:given |specific |particular )?(?:name|names|id|ids|email|emails|user|users|customer|customers|date|status|category|owner|title|tag|tags|slug|keyword|keywords|account|username|sku|prefix|term)\b`

// promptPatterns and guidePatterns are the topics' two patterns, each
// compiled on first need (lazyPattern): a one-shot hook reads every prompt
// for its topics but a guideline's words only when one is a candidate,
// and most patterns' words are in neither.
var (
	promptPatterns = sync.OnceValue(func() []*lazyPattern {
		out := make([]*lazyPattern, len(taskTopics))
		for i, t := range taskTopics {
			out[i] = newLazyPattern(t.prompt)
		}
		return out
	})
	guidePatterns = sync.OnceValue(func() []*lazyPattern {
		out := make([]*lazyPattern, len(taskTopics))
		for i, t := range taskTopics {
			out[i] = newLazyPattern(t.guide)
		}
		return out
	})
)

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
	general := generalQuestion().MatchString(p) && !ownWork().MatchString(p)
	var out []int
	for i, re := range promptPatterns() {
		if (!general || askedTopics[taskTopics[i].name]) && re.MatchString(p) {
			out = append(out, i)
		}
	}
	return out
}

// request reports whether a prompt asks something of the assistant (a
// question or a task) rather than only acknowledging ("thanks", "ok",
// "that works"): a reply to it follows the rules on the form of replies.
func request(prompt string) bool {
	p := strings.ToLower(strings.TrimSpace(cutBytes(prompt, 600)))
	if strings.Contains(p, "?") {
		return true
	}
	ws := strings.Fields(p)
	if len(ws) < 3 {
		return false
	}
	w := strings.TrimRight(ws[0], ",.;:!")
	return generalQuestion().MatchString(p) || extract.IsVerb(w) || requestLead().MatchString(p) ||
		w == "i" || w == "my" || w == "we" || w == "our"
}

// guideTopics reports how many of the topics an instruction governs.
func guideTopics(statement string, topics []int) int {
	r := readGuide(statement)
	n := 0
	for _, i := range topics {
		if r.topics&(1<<uint(i)) != 0 {
			n++
		}
	}
	return n
}

// guideReading is what a guideline's statement says of the kinds of work it
// governs, read once per statement: the patterns are many and a statement
// is asked about on every prompt.
type guideReading struct {
	topics                 uint64 // bit i: taskTopics[i]'s guide pattern matches
	reply, off, runs, asks bool   // answerStyle, offLimits, runRule, askFirst
}

var (
	guideReadings   sync.Map // statement → guideReading
	guideReadingsN  atomic.Int64
	maxGuideReading = int64(4096)
)

func readGuide(statement string) guideReading {
	if v, ok := guideReadings.Load(statement); ok {
		return v.(guideReading)
	}
	st := strings.ToLower(statement)
	var r guideReading
	// The kinds of work a rule governs are those of its main clause: an
	// exception names where it does not hold ("never add docstrings to
	// every tiny function, only the public api needs them" is a rule on
	// functions, not on the API).
	main := st
	if loc := exceptionClause().FindStringIndex(st); loc != nil && loc[0] > 0 {
		main = st[:loc[0]]
	}
	for i, re := range guidePatterns() {
		if re.MatchString(main) {
			r.topics |= 1 << uint(i)
		}
	}
	r.reply, r.off, r.runs = answerStyle().MatchString(st), offLimits().MatchString(st), runRule().MatchString(st)
	r.asks = askFirst().MatchString(st)
	if guideReadingsN.Add(1) > maxGuideReading {
		guideReadings.Clear() // bounded: a long-lived process starts over
		guideReadingsN.Store(1)
	}
	guideReadings.Store(statement, r)
	return r
}

// Beyond the topics, two kinds of rule govern more than one kind of work
// (read from the rule's own words, not from the prompt's):
//   - a rule about the form of the assistant's replies ("never use emojis
//     in your answers", "answer in German", "keep explanations short",
//     "drop the apologies") governs every reply, so every request gets it,
//     a general question included;
//   - a rule about how code is written or which files are off limits
//     ("prefer early returns", "type hints on every signature", "write the
//     test first", "never touch db/migrations") governs every code task: a
//     request to change code ("refactor validateOrder", "rename
//     users.email everywhere", "can you fix it?"), not a question.
//     A rule to run something ("always run go test -race") is a step of a
//     kind of work (testing, committing) and stays with its topic;
//   - a rule that the assistant ask first ("never add dependencies
//     without asking me first", "check with me before touching the
//     schema") governs every code task, whatever it names: any change may
//     come to the thing it guards ("add retries with backoff" may bring
//     a library), and asking costs less than the change it forbids.

var (
	// answerStyle names the form of a reply: its language, length, tone,
	// layout or the habits of its prose.
	answerStyle = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:answers?|answering|respon(?:d|ses?)|repl(?:y|ies)|explanations?|emojis?|emoticons?|apolog\w*|preambles?|walls? of text|rambl\w*|essays?|pleasantries|small talk|filler|fluff|flattery|praise|compliments?|tone|jargon|concise|brief|terse|verbose|wordy|explain|explaining|plain words|plain english|simple terms|bullet(?:s| points?)?|markdown|headings?|(?:code )?examples?|snippets?|sample code|(?:english|german|french|spanish|italian|portuguese|dutch|polish|swedish|japanese|chinese|korean|russian|turkish|hindi|arabic))\b|\b(?:talk|speak|write|explain\w*) (?:to|for) me\b|\b(?:be|stay) (?:more |less )?(?:direct|blunt|formal|informal|casual|polite|friendly|neutral)\b`)
	})
	// offLimits: a rule that keeps the assistant's hands off some files.
	offLimits = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:never|avoid|do not|don't)\b.*\b(?:touch|modify|edit|change|alter|overwrite|delete|reformat)\b.*(?:\bfiles?\b|\bfolders?\b|\bdirector(?:y|ies)\b|/|\bunder\b|\bgenerated\b)|\bleave\b.+\balone\b`)
	})
	// askFirst: a rule that the assistant ask the person before acting,
	// or leave an act to them ("never run terraform apply yourself, I
	// apply by hand").
	askFirst = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bwithout (?:asking|checking|consulting|confirming|my (?:ok|okay|approval|sign-?off))\b|\b(?:ask|check with|confirm with|ping) me (?:first|before)\b|\bask (?:first|before)\b|\bget my (?:ok|okay|approval|sign-?off)\b|\b(?:never|don't|do not)\b.*\byourself\b|\bby hand\b`)
	})
	// exceptionClause opens the part of a rule that says where it does
	// not hold, or where alone it does: ", only the public api needs
	// them", ", except the generated clients", "unless it's a loop index".
	exceptionClause = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:[,;(]|\s-)\s*(?:only|except|apart from|other than|but not|save for|unless)\b|\s(?:except(?: for)?|unless|apart from|other than)\s`)
	})
	// runRule: a rule whose action is to run something.
	runRule = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:always |never |avoid |prefer )?(?:ensure |make sure )?(?:you )?(?:run|re-?run|execute|invoke)\b`)
	})
	// codeNoun: a prompt about code names a piece of it, a path or an
	// identifier (camelCase, snake_case, dotted).
	codeNoun = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\b(?:functions?|methods?|class(?:es)?|helpers?|handlers?|endpoints?|routes?|params?|parameters?|fields?|columns?|tables?|modules?|packages?|components?|pages?|screens?|pickers?|buttons?|toggles?|forms?|dialogs?|modals?|menus?|tabs?|widgets?|badges?|banners?|spinners?|dropdowns?|tooltips?|navbars?|sidebars?|tests?|specs?|builds?|bugs?|errors?|loaders?|parsers?|importers?|exporters?|scrapers?|converters?|wrappers?|services?|api|apis|queries|query|schemas?|models?|types?|structs?|interfaces?|imports?|files?|code|codebase|repo|config|script|hooks?|util|utils|cli|server|client|logic|schedulers?|workers?|jobs?|cron|middleware|controllers?|views?|reducers?|migrations?|validators?|serializers?|resolvers?|commands?|flags?)\b|[a-z][a-z0-9]*[A-Z]\w*|\b\w+_\w+\b|\b\w+\.\w+\b|/\w`)
	})
	// requestLead opens a request put as a question: "can you fix it?".
	requestLead = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|[,.;!?]\s*|\b(?:and|then|so|now|ok|okay)\s+)(?:(?:can|could|would|will) you |please |pls |go ahead and |let's |lets )+(?:please )?([a-z][\w-]*)`)
	})
)

// codeTask reports whether a prompt asks for work on code: an imperative
// (or "can you …" request) whose verb only applies to code or whose words
// name a piece of code.
func codeTask(prompt string) bool {
	raw := strings.TrimSpace(cutBytes(prompt, 600))
	verb := relations.MainVerb(raw) // "" for a question
	if !extract.IsVerb(verb) {
		verb = ""
		if m := requestLead().FindStringSubmatch(strings.ToLower(raw)); m != nil && extract.IsVerb(m[1]) {
			verb = m[1]
		}
	}
	if verb == "" || talkVerbs[verb] {
		return false
	}
	// "refactor …" is work on code whatever its object; "write a helper",
	// not "write a haiku"
	return codeOnlyVerbs[verb] || codeNoun().MatchString(raw)
}

// codeOnlyVerbs ask for work on code whatever their object.
var codeOnlyVerbs = map[string]bool{"refactor": true, "implement": true, "debug": true, "rename": true, "fix": true,
	"lint": true, "compile": true, "deploy": true, "migrate": true, "port": true, "optimize": true, "optimise": true}

// talkVerbs ask for words, not work on code: "explain the CAP theorem",
// "recommend a book", "remind me at 9".
var talkVerbs = map[string]bool{"explain": true, "tell": true, "describe": true, "summarize": true, "summarise": true,
	"translate": true, "recommend": true, "remind": true, "schedule": true, "help": true, "show": true, "give": true,
	"list": true, "compare": true, "define": true, "teach": true, "convert": true, "compute": true, "calculate": true, "pick": true}

// broadGuide reports how a guideline governs beyond the prompt's topics:
// 2 for a rule on the form of replies, 1 for a rule on writing code or on
// files not to touch (given a code task), 0 otherwise.
func broadGuide(statement string, task bool) int {
	r := readGuide(statement)
	if r.reply && r.topics&^(topicMask("explaining")|topicMask("writing code")) == 0 {
		// "explain in plain words first, then show code" is a rule on
		// every reply that shows code, not on writing it
		// "never use emojis in commit messages" is a rule on commits, not
		// on replies: a rule that names another kind of work keeps to it
		return 2
	}
	if !task {
		return 0
	}
	if r.off || r.asks {
		return 1
	}
	if r.runs {
		// "always run make lint before you say you're done" is a step of
		// finishing, and every code task is finished: it governs them all;
		// "always run go test with -race" stays with testing
		if r.topics&topicMask("finishing") != 0 {
			return 1
		}
		return 0
	}
	// A rule of a kind of work other than writing code (committing,
	// deploying, dependencies, docs …) keeps to its topic; any other rule
	// says how code is written.
	if r.topics&^broadMask() != 0 {
		return 0
	}
	return 1
}

// topicMask is the bit of the named topic.
func topicMask(name string) uint64 {
	for i, t := range taskTopics {
		if t.name == name {
			return 1 << uint(i)
		}
	}
	return 0
}

// broadMask has the bits of broadTopics.
var broadMask = sync.OnceValue(func() uint64 {
	var m uint64
	for name := range broadTopics {
		m |= topicMask(name)
	}
	return m
})

// broadTopics are the topics whose rules say how any code is written.
// Rules on endpoints, dates and money keep to prompts of their topic (the
// prompt patterns read "add an endpoint", "save the appointment time",
// "compute the total"): "every new endpoint needs a rate limit" says
// nothing to "fix the off by one in this loop".
var broadTopics = map[string]bool{"writing code": true, "code comments": true, "formatting": true,
	"editing": true, "errors": true, "tests": true, "logging": true, "components": true, "styling": true}

// guideMarkers open every guideline's statement ("Always …", "Never …",
// "Prefer …", "Avoid …"): searched with the topics' words, they find the
// guidelines a prompt may need whatever their words, ranked by the
// topics' words.
const guideMarkers = "always never prefer avoid whenever before after"

// topicCandidates returns the active, visible, confident guidelines that
// govern a kind of work the prompt asks for, or every reply (the form of
// answers), or every code task (how code is written), best first, at most
// maxTopicGuidelines, each lifted by topicBoost.
func (s *search) topicCandidates(ctx context.Context, p belief.Params, turn int64) ([]*beliefCandidate, error) {
	if !s.q.AsOf.IsZero() || s.r.Opts.MaxBeliefs <= 0 {
		return nil, nil
	}
	topics := promptTopics(s.q.Text)
	task := codeTask(s.q.Text)
	if len(topics) == 0 && !request(s.q.Text) {
		return nil, nil
	}
	// The index finds the guidelines by their opening words and the
	// topics' words (a few milliseconds on a long history, unlike reading
	// every guideline); the patterns then say which govern the prompt.
	ws := strings.Fields(guideMarkers)
	seen := map[string]bool{}
	for _, i := range topics {
		for _, w := range strings.Fields(taskTopics[i].words) {
			if !seen[w] {
				seen[w] = true
				ws = append(ws, w)
			}
		}
	}
	limit := maxTopicSearch
	if len(topics) == 0 {
		// only the rules that govern broadly can come: the guidelines
		// found by their opening words, fewer rows read
		limit = maxBroadSearch
	}
	bs, err := s.searchBeliefRows(ctx, ws, limit)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	type scored struct {
		c     *beliefCandidate
		n     int
		broad int
		cov   float64
	}
	var found []scored
	for _, b := range bs {
		if b.Kind != belief.KindGuideline || b.Status != belief.Active || !s.visible(b.Scope, b.ProjectPath) {
			continue
		}
		n := guideTopics(b.Statement, topics)
		broad := broadGuide(b.Statement, task)
		if n == 0 && broad == 0 {
			continue
		}
		c := &beliefCandidate{b: b, raw: b.Confidence(p, s.now, turn)}
		c.conf = c.raw
		if c.conf < s.r.Opts.MinConfidence {
			continue
		}
		c.strength = s.retrievalStrength(b, p)
		found = append(found, scored{c, n, broad, coverage(s.terms, b.Statement)})
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i], found[j]
		if a.n != b.n {
			return a.n > b.n
		}
		if a.broad != b.broad {
			return a.broad > b.broad
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
		// More topics in common, more words in common: first; a rule
		// that governs broadly comes after those of the prompt's topics.
		f.c.boost = topicBoost + 0.01*float64(f.n) + 0.01*f.cov
		if f.n == 0 {
			f.c.boost -= 0.05
		}
		out = append(out, f.c)
	}
	return out, nil
}

func init() {
	if len(taskTopics) > 64 {
		panic("recall: more than 64 task topics do not fit guideReading.topics")
	}
}
