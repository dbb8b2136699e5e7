package extract

import (
	"regexp"
	"strings"
	"sync"
)

// A second reading. When a clause yields nothing as written, it is read
// once more after rewording the shapes people use that the matchers do not
// know into the plain statement they mean: a fronted phrase put back after
// its verb ("For the tests we are using Vitest"), a change announced for a
// date ("from next sprint we'll deploy from release"), terse chat ("tz =
// CET", "jest → vitest"), a rule said as a complaint ("stop adding
// comments everywhere", "it drives me nuts when you rename variables") or
// asked as a question ("can we not use any in TS please"). The second
// reading passes the same filters and matchers as the first, so a plan, a
// question or a task stays out; only the shape changes.

// rewording is one rewrite of a raw clause. Its pattern is matched against
// the clause as written (case kept, so a name stays a name); the flags say
// what the rewritten words leave unsaid.
type rewording struct {
	re         func() *regexp.Regexp
	need       []string // words one of which the clause must hold (lower case) for re to be tried at all
	out        string
	change     bool // the words dropped marked a change ("from next sprint")
	correction bool // the words dropped marked a correction ("…, sorry")
	standing   bool // the words dropped made it a standing rule
	future     bool // the clause announces the change for a date: modals are read as done
	statement  bool // only a clause said without a question mark
}

// weekday and month names, and a date after a month.
const (
	weekdayRe = `(?:mon|tues|wednes|thurs|fri|satur|sun)day`
	monthRe   = `(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?:\s+\d{1,2}(?:st|nd|rd|th)?)?`
	whenRe    = `(?:(?:the\s+)?next\s+(?:week|month|sprint|quarter|year|release|version|cycle)|tomorrow|` + weekdayRe + `|` + monthRe + `|v\d+(?:\.\d+)*|(?:the\s+)?\d+(?:\.\d+)+(?:\s+release)?|the\s+new\s+year|q[1-4](?:\s+\d{4})?|\d{4}|the\s+(?:next\s+)?(?:release|migration|merge|holidays|reorg)|(?:the\s+)?\d{1,2}(?:st|nd|rd|th)(?:\s+of\s+` + monthRe + `)?)`
)

// offeredTail is a tail that offers the statement as help: "if that
// matters", "btw if thats relevant for mirrors", "if it helps with the
// build errors". It conditions nothing, so analyze cuts it before the
// hypothetical filter sees its "if".
var offeredTail = lazyRegexp(`(?i),?\s+(?:(?:btw|fyi)\s*,?\s+)?(?:(?:if|in\s+case)\s+(?:that|it|this)(?:'s|s|\s+is)?\s+(?:helps|matters|relevant|useful|important|of\s+use)(?:\s+(?:for|to|with|in)\s+[^,;]+)?|(?:if|in\s+case)\s+you\s+(?:need|want|care|were\s+wondering|wondered|ever\s+need)(?:\s+(?:it|that|this|to\s+know))?|for\s+(?:context|reference|the\s+record|what\s+it'?s\s+worth))[.!]?$`)

var rewordings = []rewording{
	// a standing marker set between commas inside the sentence: "I'd
	// appreciate it if, going forward, you kept answers short"
	{re: lazyRegexp(`(?i)\s*,\s*(?:going forward|from now on|moving forward|in (?:the )?future|from here on(?: out)?)\s*,\s*`), out: " ", standing: true},
	{re: lazyRegexp(`(?i)^(?:also|and|anyway|so|ok|okay|btw|plus|but|personally|honestly|frankly|heads\s+up|fyi|fwiw|note|quick\s+update|update|(?:life|personal|small|big|some|job|work)\s+(?:update|news)|news|big\s+news)\s*[,:!]?\s+`)},
	// a change told with a figure of speech: "we took the plunge and went
	// with Deno", "We just cut over from Heroku Postgres to RDS"
	{re: lazyRegexp(`(?i)^(we|i)\s+(?:finally\s+|just\s+)?(?:took\s+the\s+plunge|bit\s+the\s+bullet|made\s+the\s+(?:jump|switch|move)|pulled\s+the\s+trigger)\s+and\s+(?:went\s+with|switched\s+to|moved\s+to|adopted|picked)\s+(.+)$`), out: "$1 switched to $2", change: true},
	{re: lazyRegexp(`(?i)^(we|i)\s+(?:have\s+|just\s+|finally\s+)*(?:cut\s+over|cutover|rolled\s+over|flipped)\s+(?:everything\s+)?from\s+(.+?)\s+to\s+(.+)$`), out: "$1 switched from $2 to $3", change: true},
	{re: lazyRegexp(`(?i)^we(?:'re|\s+are)\s+(?:an?\s+)?([\w.+#]+)[- ]only(?:\s+(?:shop|team|house))?(?:\s+(?:now|these\s+days))?$`), out: "we use $1 now", change: true, need: []string{"only"}},
	{re: lazyRegexp(`(?i)\b(using|use|living|working|on)\s+since\s+(?:last\s+|this\s+)?\w+\s+`), out: "$1 "},
	{re: lazyRegexp(`(?i)\b(service|app|backend|frontend|project|repo|api|code)\s+itself\b`), out: "$1"},
	{re: lazyRegexp(`(?i)^(?:please\s+)?remember\s+to\s+(always|never)\s+`), out: "$1 "},
	{re: lazyRegexp(`(?i)\b(?:we\s+are|we're|we\s+will\s+be|we'll\s+be)\s+on\s+(.+?)\s+for\s+(?:deploys|deployments|deployment|hosting)$`), out: "we deploy to $1"},
	// a date that opens a decision: "from next sprint we'll deploy from
	// release" takes effect then. A plan said with its date after it ("I'm
	// moving to Berlin next month", "we're switching to Yarn next
	// quarter") is still a plan: the hedge filter keeps it out.
	{re: lazyRegexp(`(?i)^(?:from|starting|beginning|as of|effective|after)\s+` + whenRe + `(?:\s+on(?:wards)?)?\s*,?\s+`), change: true, future: true},
	{re: lazyRegexp(`(?i)^(?:yesterday|last\s+(?:week|month|year|sprint)|now)\s*,?\s+`), change: true},
	{re: lazyRegexp(`(?i)^since\s+(?:\w+|\d+)\s+(?:years?|months?|weeks?)\s*,?\s+`)},
	{re: lazyRegexp(`(?i)^since\s+(?:\d{4}|last\s+(?:year|month|week)|` + monthRe + `)\s*,?\s+`)},
	{re: lazyRegexp(`(?i)^((?:at|in|with)\s+[^,]+?\s+(?:we|i)\s+.+?)\s+(?:now|these days|nowadays)$`), out: "$1"},
	{re: lazyRegexp(`(\w)/$`), out: "$1"}, // "deploy from release/"
	{re: lazyRegexp(`(?i)^(?:ah+|oh+|uh+|hm+|ehm?|err?m?)\s*,?\s+`)},
	{re: lazyRegexp(`^(\S+(?:\s\S+)?)\*$`), out: "$1", correction: true},
	{re: lazyRegexp(`(?i)^(?:(?:it(?:'s|\s+is)|that(?:'s|\s+is))\s+)?([A-Z][\w'-]+),?\s+with\s+(?:an?|two|one|double)\s+\w\b.*$`), out: "$1", correction: true},
	{re: lazyRegexp(`(?i)^(?:no,?\s+)?from\s+(?:the\s+)?(\S+)\s+branch$`), out: "we deploy from the $1 branch", correction: true},
	// asides that add nothing
	{re: lazyRegexp(`(?i),?\s+(?:fyi|of course|obviously|to be exact|if that helps|if it helps|in case it matters|in case that helps|if that matters)$`)},
	// a tail that offers the statement as help conditions nothing:
	// "Europe/Madrid is my timezone if you need it", "it's cockroachdb
	// if that matters", "… in case you were wondering"
	{re: offeredTail, need: []string{" if ", " in case", " for context", " for reference", " for the record", " for what"}},
	{re: lazyRegexp(`(?i)^(.+?),?\s+(?:sorry|my bad|oops|my mistake|technically|to be precise|strictly speaking)$`), out: "$1", correction: true},
	// "all" between a plural subject and its verb says how much, not
	// what: "background jobs all go through sidekiq"
	{re: lazyRegexp(`(?i)^((?:the\s+|our\s+|my\s+)?(?:[\w-]+\s+){0,2}[\w-]+s)\s+all\s+((?:go(?:es)?\s+(?:through|via)|run\s+(?:on|through|in|via)|live\s+in|sit\s+in|use|are\s+(?:stored|kept|deployed|hosted|written)\s+(?:in|on|to|with)|get\s+(?:stored|deployed|sent)\s+(?:in|to|on))\b)`), out: "$1 $2", need: []string{" all "}},
	// a degree before "all" or "every" hedges nothing that matters: "i
	// write pretty much all my tests with pytest"
	{re: lazyRegexp(`(?i)\b(?:pretty\s+much|almost|nearly|basically|practically|more\s+or\s+less)\s+(all|every|everything)\b`), out: "$1", need: []string{"all", "every"}},
	// what the speaker deploys, said with its kind: "I deploy my side
	// projects to Fly"
	{re: lazyRegexp(`(?i)^(i|we)\s+(deploy|host|ship)\s+(?:all\s+)?(?:my|our)\s+(?:[\w-]+\s+){0,2}(?:projects|apps|sites|services|stuff|things|side\s+projects)\s+(to|on|with)\s+(.+)$`), out: "$1 $2 $3 $4", need: []string{"deploy", "host", "ship"}},
	// a tool bumped to a version, said without who did it: "python bumped
	// to 3.12", "node was upgraded to 22"
	{re: lazyRegexp(`(?i)^([a-z][\w.+#-]*)\s+(?:was\s+|has\s+been\s+|just\s+|finally\s+)*(?:bumped|upgraded|updated|moved)\s+(?:up\s+)?to\s+(v?\d+(?:\.\d+)*)(?:\s+(?:now|today|yesterday|last\s+\w+|this\s+\w+))?$`), out: "we upgraded $1 to $2", change: true, need: []string{" to "}},
	// a slot noun said bare: "default branch is now trunk"
	{re: lazyRegexp(`(?i)^(default|main|release|deploy|production|prod|staging|dev)\s+branch\s+(?:is|=|:)\s+(?:now\s+)?([\w./-]+)(?:\s+now)?$`), out: "our $1 branch is $2", need: []string{"branch"}},
	// a jump made to a tool: "finally made the jump to linux"
	{re: lazyRegexp(`(?i)^(?:(we|i)\s+)?(?:finally\s+|just\s+|recently\s+)?made\s+the\s+(?:jump|switch|move|leap)\s+(?:over\s+)?to\s+(.+)$`), out: "I switched to $2", change: true, need: []string{"made the"}},
	// the tool in use now, its subject left out: "using date-fns now"
	{re: lazyRegexp(`(?i)^(?:now\s+|just\s+)?using\s+([\w.+#-]+(?:\s[\w.+#-]+)?)\s+(?:now|these\s+days|nowadays|instead)$`), out: "we use $1 now", change: true, need: []string{"using"}},
	// rules said as terse chat: "tests first, always", "lowercase commit
	// messages please", "two spaces for yaml", "we want 100% coverage on
	// new code", "i want explanations short and to the point"
	{re: lazyRegexp(`(?i)^(tests|specs|types|the\s+types|docs|the\s+docs|the\s+plan|a\s+plan|migrations|the\s+migration|interfaces|the\s+interface)\s+first,?\s+(?:always|every\s+time|please|no\s+exceptions)$`), out: "always write $1 first", need: []string{"first"}},
	{re: lazyRegexp(`(?i)^(lowercase|lower-case|uppercase|short|shorter|atomic|descriptive|signed|small|smaller|typed|squashed|imperative)\s+(` + standingArtefacts + `)(?:,?\s+(?:please|always|only))+$`), out: "always use $1 $2", need: []string{"please", "always", "only"}},
	{re: lazyRegexp(`(?i)^(two|four|eight|2|4|8)\s+spaces\s+(for|in)\s+((?:all\s+)?[a-z0-9.+#-]+(?:\s+(?:files|code))?)$`), out: "use $1 spaces $2 $3", need: []string{"spaces"}},
	{re: lazyRegexp(`(?i)^(?:we|i)\s+(?:want|need|require|expect|aim\s+for)\s+(\d+\s?%\s+(?:test\s+)?coverage\b.*)$`), out: "always keep $1", need: []string{"coverage"}},
	{re: lazyRegexp(`(?i)^i\s+(?:want|like|prefer|need)\s+(explanations|answers|responses|replies|summaries|commit\s+messages|comments|docstrings|functions|prs|pull\s+requests|diffs)\s+((?:short|brief|concise|terse|small|simple|plain|focused|minimal|direct)\b.*)$`), out: "keep $1 $2", need: []string{"want", "like", "prefer", "need"}},
	// a habit asked for with the words of remembering: "please keep in
	// mind to update the changelog"
	{re: lazyRegexp(`(?i)^(?:please\s+)?keep\s+in\s+mind\s+to\s+(.+)$`), out: "always $1", need: []string{" to "}},
	// a state an artifact must keep: "readme must stay up to date"
	{re: lazyRegexp(`(?i)^((?:the\s+|our\s+)?[\w.-]+(?:\s[\w.-]+)?)\s+(?:must|should|needs?\s+to|has\s+to|have\s+to)\s+(?:stay|remain|be\s+kept)\s+(.+)$`), out: "keep $1 $2", need: []string{"stay", "remain", "kept"}},
	// a wish that the assistant stop or always do something: "I'd really
	// like you to stop using global variables"
	{re: lazyRegexp(`(?i)^i(?:'d|\s+would)\s+(?:really\s+)?(?:like|love|want|prefer)\s+(?:for\s+)?you\s+to\s+((?:stop|always|never|avoid)\b.+)$`), out: "$1", need: []string{"you to"}},
	// a taste said without its "I": "don't like emojis in the code"
	{re: lazyRegexp(`(?i)^(?:really\s+)?(?:don't|do\s+not)\s+(like|love|enjoy)\s+(.+)$`), out: "I do not $1 $2", need: []string{"like", "love", "enjoy"}},
	// how to speak to the person: "talk to me like a senior engineer"
	{re: lazyRegexp(`(?i)^(?:please\s+)?(talk|speak|write|explain\s+things|explain\s+stuff)\s+to\s+me\s+(like|as\s+if|as\s+though|as)\s+(.+)$`), out: "always $1 to me $2 $3", need: []string{" me "}},
	// a fronted scope without its comma: "in python always use f-strings"
	{re: lazyRegexp(`(?i)^(in|for|with)\s+([\w.+#-]+(?:\s+(?:code|files|tests|projects|scripts))?)\s+(always|never)\s+(.+)$`), out: "$3 $4 in $2", need: []string{"always", "never"}},
	// a scope of every piece of code fronted before the rule: "please for
	// all code you write use type hints", "for all the code please add
	// docstrings"
	{re: lazyRegexp(`(?i)^(?:please\s+)?(?:for|in)\s+(?:all\s+)?(?:the\s+)?(?:code|tests|functions|scripts|files|modules)(?:\s+(?:you|we)\s+write)?\s*,?\s+(?:please\s+)?((?:add|use|write|include|put|keep|avoid|prefer|follow|run|document|name|wrap|handle|check|log)\s.+)$`), out: "always $1", need: []string{"for ", "in "}},
	// what matters to the person: "is important for me that code is
	// tested"
	{re: lazyRegexp(`(?i)^(?:it(?:'s|\s+is)\s+|is\s+)?(?:very\s+|really\s+|super\s+)?important\s+(?:for|to)\s+(?:me|us)\s+that\s+(?:the\s+|all\s+|our\s+)?([\w-]+(?:\s[\w-]+)?)\s+(?:is|are|gets|get)\s+(tested|documented|typed|reviewed|formatted|linted|signed|covered)$`), out: "always make sure $1 is $2", need: []string{"important"}},
	// a team's habit with its adverb: "the team always reviews migrations
	// twice"
	{re: lazyRegexp(`(?i)^(?:our|the|my)\s+team\s+(always|never)\s+(\w+s)\s+(.+)$`), out: "in this team we $1 $2 $3", need: []string{"team"}},
	// one tool or way over another, said in chat: "better to use pathlib
	// than os.path", "pathlib over os.path please", "we use pathlib, not
	// os.path" (a tool the taxonomy knows stays a fact), "always good to
	// run the linter first"
	{re: lazyRegexp(`(?i)^(?:it(?:'s|\s+is)\s+)?(?:always\s+)?better\s+to\s+use\s+([\w.+#/-]+(?:\s[\w.+#/-]+)?)\s+(?:than|over|instead\s+of)\s+([\w.+#/-]+(?:\s[\w.+#/-]+)?)$`), out: "prefer $1 over $2", need: []string{"better"}},
	{re: lazyRegexp(`(?i)^([\w.+#/-]+)\s+over\s+([\w.+#/-]+)(?:,?\s+(?:please|always|every\s+time))+$`), out: "prefer $1 over $2", need: []string{" over "}},
	{re: lazyRegexp(`(?i)^we\s+use\s+([a-z][\w.+#/-]*),?\s+not\s+([a-z][\w.+#/-]*)$`), out: "always use $1 instead of $2", need: []string{" not "}},
	{re: lazyRegexp(`(?i)^(?:it(?:'s|\s+is)\s+)?always\s+(?:good|wise|best|smart)\s+to\s+(.+)$`), out: "always $1", need: []string{"always"}},
	// the OS on the person's machine: "running ubuntu 24.04 on my laptop"
	{re: lazyRegexp(`(?i)^(?:now\s+|currently\s+)?running\s+(.+?)\s+on\s+my\s+(laptop|machine|desktop|computer|pc|mac|workstation|box|dev\s+box)$`), out: "I am running $1 on my $2", need: []string{"running"}},
	// a job of the system and the service that does it: "auth is handled
	// by clerk", "payments are done through stripe"
	{re: lazyRegexp(`(?i)^(?:the\s+|our\s+)?(auth|authentication|payments|billing|emails?|email\s+sending|search|logging|logs|monitoring|analytics|caching|queues?|background\s+jobs|storage|uploads|file\s+storage|notifications|feature\s+flags|secrets|dns|cdn|error\s+tracking|tracing|metrics)\s+(?:is|are)\s+(?:handled|done|managed|provided|taken\s+care\s+of|processed|sent)\s+(?:by|with|through|via)\s+([\w.+#-]+(?:\s[\w.+#-]+)?)$`), out: "we use $2 for $1", need: []string{" by ", " with ", " through ", " via "}},
	// a kind of test said bare with its tool: "e2e tests are cypress"
	{re: lazyRegexp(`(?i)^(unit\s+tests|e2e\s+tests|e2e|end-to-end\s+tests|integration\s+tests|component\s+tests)\s+(are|is)\s+`), out: "our $1 $2 ", need: []string{"test", "e2e"}},
	// one employer left for another: "left Google in march, now at
	// Anthropic"
	{re: lazyRegexp(`^(?i:(?:i\s+)?(?:just\s+)?left)\s+([A-Z][\w.&-]*(?:\s[A-Z][\w.&-]*)?)(?i:\s+(?:in|last|this)\s+\w+)?(?i:\s*,\s*|\s+and\s+)(?i:(?:i(?:'m|\s+am)\s+)?now\s+(?:at|with|working\s+at|working\s+for))\s+([A-Z][\w.&-]*(?:\s[A-Z][\w.&-]*)?)$`), out: "I left $1 for $2", change: true, need: []string{"left"}},
	// tabs or spaces said bare are the indentation: "we use tabs here"
	{re: lazyRegexp(`(?i)^we\s+(?:always\s+|only\s+)?use\s+(tabs|spaces)(?:\s+(?:here|in\s+this\s+(?:repo|project|codebase)|everywhere|only))?$`), out: "we use $1 for indentation", need: []string{"tabs", "spaces"}},
	// "let's not use classes"; "it's our policy to review every PR"
	{re: lazyRegexp(`(?i)^let(?:'s|\s+us)\s+(?:not|never)\s+((?:use|add|write|introduce|touch|push|merge|commit|deploy|import|mock|rename|delete|remove|install|hardcode|hard-code|pin|squash|rebase|mix|copy|skip|disable|leave|create|depend\s+on|rely\s+on)\s.+)$`), out: "never $1", need: []string{"let"}},
	{re: lazyRegexp(`(?i)^(?:it(?:'s|\s+is)\s+)?(?:our|the|team|company|house)\s+(?:policy|rule|convention|practice|standard)\s+(?:here\s+)?to\s+(.+)$`), out: "always $1", need: []string{"policy", "rule", "convention", "practice", "standard"}},
	// rules said as a need or a place: "each bug fix should come with a
	// regression test", "any new dependency needs my approval", "config
	// belongs in environment variables", "talk to me in German", "my
	// answers should be in French"
	{re: lazyRegexp(`(?i)^(?:each|every|all|any)\s+((?:[\w-]+\s+){0,2}[\w-]+?)\s+(?:should|must|needs\s+to|has\s+to)\s+(?:come\s+with|include|ship\s+with)\s+(.+)$`), out: "always include $2 with every $1", need: []string{"come with", "include", "ship with"}},
	// "can you always include the unit in variable names, like timeoutMs"
	// said without a question mark asks for a habit of adding a thing;
	// "can you always reproduce it?" and "can you always use pnpm" ask
	// about ability
	{re: lazyRegexp(`(?i)^(?:can|could)\s+you\s+(?:please\s+)?always\s+((?:include|add|put|mention|prefix|suffix|mark|label|link)\s.+)$`), out: "always $1", need: []string{"always"}, statement: true},
	// "every bug fix needs a regression test": a piece of work that needs
	// a thing made with it
	{re: lazyRegexp(`(?i)^(?:each|every)\s+((?:[\w-]+\s+){0,2}(?:fix|bugfix|bug-fix|hotfix|change|feature|release|patch|ticket|story))\s+(?:needs|requires)\s+(an?\s+(?:[\w-]+\s+){0,3}[\w-]+)$`), out: "always include $2 with every $1", need: []string{"needs", "requires"}},
	{re: lazyRegexp(`(?i)^(?:any|every|all)\s+(new\s+)?((?:[\w-]+\s+)?[\w-]+?)\s+(?:needs|need|requires|require)\s+my\s+(?:approval|sign-?off|ok|okay|go-ahead)$`), out: "ask me before adding a $1$2", need: []string{"my "}},
	{re: lazyRegexp(`(?i)^(?:the\s+|all\s+|our\s+)?(config|configuration|secrets|credentials|constants|settings|env\s+vars|styles|types|business\s+logic|helpers|utils)\s+(?:belongs?|go(?:es)?|should\s+live|should\s+go)\s+in\s+(.+)$`), out: "always keep $1 in $2", need: []string{" in "}},
	{re: lazyRegexp(`(?i)^(?:please\s+)?(?:talk|speak|write|reply|answer|respond)\s+to\s+me\s+in\s+([a-z]+)$`), out: "always respond in $1", need: []string{" me in "}},
	{re: lazyRegexp(`(?i)^(?:my|your|the|all)\s+(?:answers|replies|responses)\s+(?:should|must|need\s+to)\s+be\s+in\s+([a-z]+)$`), out: "always respond in $1", need: []string{" be in "}},
	// a role hedged as a degree: "I'm more of a platform engineer"
	{re: lazyRegexp(`(?i)\bi(?:'m|\s+am)\s+(?:more\s+of|kind\s+of|sort\s+of|basically)\s+(an?\s+)`), out: "I am $1", need: []string{"of ", "basically"}},
	// non-native order and terse forms
	{re: lazyRegexp(`(?i)^me,?\s+i\b`), out: "I"},
	{re: lazyRegexp(`(?i)\b(is|am|are)\s+since\s+(?:last\s+)?\w+\s+`), out: "$1 "},
	{re: lazyRegexp(`^(?i:my name)\s+([A-Z])`), out: "my name is $1"},
	{re: lazyRegexp(`(?i)^(?:the\s+)?(\w+(?:\s\w+)?)\s+(?:we|i)\s+(?:use|are using|am using|have)\s+is\b`), out: "our $1 is"},
	{re: lazyRegexp(`(?i)^(?:the\s+)?(\w+(?:\s\w+)?)\s+of\s+(?:the|this|our)\s+(?:project|repo|app|service|codebase)\s+is\b`), out: "our $1 is"},
	{re: lazyRegexp(`(?i)^(\w+(?:\s\w+)?)\s+of\s+me\s+is\b`), out: "my $1 is"},
	{re: lazyRegexp(`(?i)^(\S+)\s+is\s+the\s+(\w+(?:\s\w+)?)\s+(?:i|we)\s+(?:am\s+|are\s+)?(?:use|using)\b.*$`), out: "my $2 is $1"},
	{re: lazyRegexp(`(?i)^for\s+(?:the\s+)?([\w ]+?),?\s+(we|i)\s+(?:have|use|are using|am using|go with|rely on)\s+(.+)$`), out: "$2 use $3 for $1"},
	{re: lazyRegexp(`(?i)^(?:the\s+)?(tests|builds|migrations)\s+(?:we|i)\s+run\s+(?:them|it)\s+(?:with|on|using)\s+(.+)$`), out: "we use $2 for $1"},
	{re: lazyRegexp(`(?i)^(we|i)\s+have\s+(\S+(?:\s\S+)?)\s+(for|as)\s+`), out: "$1 use $2 $3 "},
	{re: lazyRegexp(`(?i)^is\s+(deployed|hosted|written|built|running)\s+(on|to|in|with|at)\s+(.+?)\s+(our|the|this)\s+(.+)$`), out: "$4 $5 is $1 $2 $3"},
	{re: lazyRegexp(`(?i)^(written|deployed|hosted|built)\s+(in|on|to|with)\s+(.+?)\s+(?:is|are)\s+(this|the|our)\s+(?:whole\s+|entire\s+)?(.+)$`), out: "$4 $5 is $1 $2 $3"},
	{re: lazyRegexp(`(?i)^production,?\s+we\s+deploy\s+from\b`), out: "we deploy production from"},
	{re: lazyRegexp(`(?i)\bfrom\s+(?:the\s+)?branch\s+(\S+)`), out: "from the $1 branch"},
	{re: lazyRegexp(`(?i)\bis\s+listening\s+(?:at|on)\s+port\b`), out: "runs on port"},
	{re: lazyRegexp(`(?i)^(at|in|with)\s+([^,]+?),?\s+(we|i)\s+([^,]+)(.*)$`), out: "$3 $4 $1 $2$5"},
	{re: lazyRegexp(`(?i)^((?:my\s+|our\s+)?)tz(\s*(?:=|:|\s+is\b))`), out: "${1}timezone$2"},
	{re: lazyRegexp(`(?i)^((?:my\s+|our\s+)?)mgr(\s*(?:=|:|\s+is\b))`), out: "${1}manager$2"},
	{re: lazyRegexp(`(?i)^((?:my\s+|our\s+|the\s+)?)db(\s*(?:=|:|\s+is\b))`), out: "${1}database$2"},
	{re: lazyRegexp(`(?i)^(go|golang|python|node|ruby|java|rust|php|deno|typescript)\s+v?(\d+(?:\.\d+)*)(?:\s+(?:here|btw|for us|now|these days|nowadays))?$`), out: "we are on $1 $2"},
	{re: lazyRegexp(`(?i)^work(?:ing)?\s+(?:@|at)\s+`), out: "I work at "},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+(?:in|on)\s+(?:the\s+)?(\S+)\s+time\s?zone$`), out: "my timezone is $1"},
	{re: lazyRegexp(`(?i)^i(?:'ve|\s+have)\s+been\s+(?:in|living\s+in|based\s+in)\s+([A-Z][\w.-]*(?:\s[A-Z][\w.-]*)?)\s+(?:for|since)\s+.+$`), out: "I live in $1"},
	{re: lazyRegexp(`(?i)^(my|our)\s+(?:go-to\s+|favou?rite\s+|main\s+|daily\s+|primary\s+)?(editor|shell|os|database|ci|language|framework)\s+(?:has\s+always\s+been|has\s+been|is\s+still|remains|has\s+been\s+for\s+years)\s+(.+)$`), out: "$1 $2 is $3"},
	{re: lazyRegexp(`(?i)^everything(?:'s|\s+is)\s+(?:on|in)\s+`), out: "everything runs on "},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+(?:on|in)\s+the\s+[\w -]+?\s+(?:team|org|group)\s+(?:at|@)\s+([A-Z][\w.&-]*)$`), out: "I work at $1"},
	{re: lazyRegexp(`(?i)^(?:the\s+)?(api|app|server|backend|frontend|service)\s+(?:is\s+)?on\s+:?(\d{2,5})$`), out: "the $1 runs on port $2"},
	{re: lazyRegexp(`^(\S+(?:\s\S+)?)\s*(?:→|->|=>)\s*(\S+(?:\s\S+)?)$`), out: "we switched from $1 to $2", change: true},
	{re: lazyRegexp(`(?i)^(?:the\s+)?(?:repo|project|codebase|app)'s\s+`), out: "our "},
	{re: lazyRegexp(`(?i)^(?:the\s+)?(frontend|backend|app|api|service|site|website|server|worker)\s+is\s+(?:a|an)\s+(\S+)\s+(?:app|project|service|application|codebase|site|api)$`), out: "the $1 is built with $2"},
	{re: lazyRegexp(`(?i)^(?:it\s+is|it's)\s+(?:a|an)\s+(\S+)\s+(?:app|project|service|application|codebase)$`), out: "the project is built with $1"},
	{re: lazyRegexp(`(?i)^(?:.*\s)?(ci|database|editor|deploy target),?\s+which\s+(?:for\s+us|here|in\s+our\s+case)\s+is\s+(.+)$`), out: "our $1 is $2"},
	{re: lazyRegexp(`^(?i:my)\s+(manager|boss|lead|team lead|tech lead|skip|direct manager),\s+([A-Z][\w-]+(?:\s[A-Z][\w-]+)*),.*$`), out: "my $1 is $2"},
	// an appositive that names the person a sentence ends on: "the person
	// who reviews all my work is my lead, Farah Haddad"
	{re: lazyRegexp(`^(?:.*\s)?(?i:my)\s+(manager|boss|lead|team lead|tech lead|direct manager),?\s+([A-Z][\w-]+(?:\s[A-Z][\w-]+)*)$`), out: "my $1 is $2", need: []string{"my "}},
	// a place named by a word that points at the speaker's project: "the
	// backend here is FastAPI", "tests here run with mocha"
	{re: lazyRegexp(`(?i)^((?:the\s+|our\s+|my\s+)?[a-z0-9/-]+(?:\s[a-z0-9/-]+)?)\s+(?:here|in\s+this\s+(?:repo|project|codebase|service)|on\s+this\s+(?:project|one|repo))\s+((?:is|are|run|runs|use|uses|live|lives|go|goes|sit|sits)\b.*)$`), out: "$1 $2", need: []string{" here ", " in this ", " on this "}},
	// a part of the project that keeps its data somewhere: "this service
	// keeps its data in DynamoDB"
	{re: lazyRegexp(`(?i)^(?:this|the|our)\s+(?:service|app|api|backend|project|repo|system|platform|worker|application)\s+(?:keeps|stores|persists|puts|saves|has)\s+(?:its|all\s+its|all\s+of\s+its|our|the|all)\s+(?:data|state|records)\s+(in|on)\s+(.+)$`), out: "our data lives $1 $2"},
	// what kind of app the project is, with its version and its language:
	// "We're a Rails 7 app on Ruby 3.3"
	{re: lazyRegexp(`(?i)^(?:we\s+are|we're|this\s+is|it\s+is|it's)\s+(?:a|an)\s+([\w.+#-]+(?:\s+v?\d+(?:\.\d+)*)?)\s+(?:app|service|project|shop|codebase|api|monorepo|backend|site)\s+(?:on|with|using|in)\s+([\w.+#-]+(?:\s+v?\d+(?:\.\d+)*)?)$`), out: "we use $1 and $2"},
	// a team named with the employer: "I'm at Monzo, on the fraud team"
	{re: lazyRegexp(`^(?i:i(?:'m|\s+am))\s+(?:at|with)\s+([A-Z][\w.&-]*(?:\s[A-Z][\w.&-]*)?),?\s+(?:on|in)\s+(?:the|a)\s+[\w -]+?\s+(?:team|org|group|squad|department)$`), out: "I work at $1"},
	// changes in other words
	{re: lazyRegexp(`(?i)^(i|we)(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:started|begun|began)\s+using\s+(.+?)(?:\s+(?:this|last)\s+(?:week|month|year|sprint))?$`), out: "$1 switched to $2", change: true},
	{re: lazyRegexp(`(?i)^after\s+(?:\w+\s+)?(?:years|months|weeks|a\s+decade|ages|a\s+year|a\s+long\s+time)\s+(?:of|on|with)\s+([\w.+#-]+(?:\s[\w.+#-]+)?),?\s+(i|we)\s+(?:finally\s+|just\s+)?(?:moved|switched|migrated|went)\s+(?:over\s+)?to\s+(.+)$`), out: "$2 switched from $1 to $3", change: true},
	{re: lazyRegexp(`(?i)^(?:we|the\s+team|our\s+team)\s+(?:have\s+|has\s+|just\s+|finally\s+|officially\s+)*(?:adopted|introduced|rolled\s+out|brought\s+in|standardi[sz]ed\s+on|settled\s+on|went\s+with|opted\s+for|committed\s+to)\s+(.+?)(?:\s+(?:this|last)\s+(?:week|sprint|month|quarter|year))?$`), out: "we use $1", change: true},
	{re: lazyRegexp(`(?i)^(?:we\s+)?(?:have\s+|just\s+|finally\s+)?renamed\s+(?:the\s+)?(master|main|trunk|develop|dev|production|prod)(?:\s+branch)?\s+to\s+(master|main|trunk|develop|dev|production|prod)$`), out: "we renamed the default branch from $1 to $2", change: true},
	{re: lazyRegexp(`(?i)\b(switched|changed|moved|migrated|went)\s+(?:over\s+)?to\s+(.+?)\s+from\s+(.+)$`), out: "$1 from $3 to $2", change: true},
	{re: lazyRegexp(`(?i)\bwe\s+went\s+to\b`), out: "we switched to", change: true},
	{re: lazyRegexp(`(?i)\b(we|i)\s+(?:now\s+)?change\s+to\b`), out: "$1 switched to", change: true},
	{re: lazyRegexp(`(?i)^the\s+company\s+(?:i|we)\s+work\s+(?:for|at)\s+is\b`), out: "I work at"},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+working\s+as\s+(an?\s+.+?)(?:\s+since\s+.*)?$`), out: "I am $1"},
	{re: lazyRegexp(`(?i)\b(?:was|were|got|has been)\s+(?:re-?written|converted|rewritten)\s+from\b`), out: "was ported from", change: true},
	{re: lazyRegexp(`(?i)^changed\s+my\s+`), out: "I changed my ", change: true},
	{re: lazyRegexp(`(?i)^(?:i\s+)?(?:just\s+|finally\s+)?got\s+promoted\s+to\s+(?:a\s+|an\s+)?(.+?)(?:\s+(?:last|this)\s+\w+|\s+yesterday|\s+today)?$`), out: "I am a $1 now", change: true},
	{re: lazyRegexp(`(?i)\breplaced\s+(\S+(?:\s\S+)?)\s+by\b`), out: "replaced $1 with", change: true},
	{re: lazyRegexp(`(?i)^(our|my|the)\s+([\w ]+?)\s+(?:got|was|has been)\s+renamed\s+(?:from\s+\S+\s+)?to\s+(.+)$`), out: "$1 $2 is $3", change: true},
	{re: lazyRegexp(`(?i)^(?:we\s+)?(?:moved|migrated|took)\s+(?:the\s+whole\s+thing|everything|it\s+all|it|the\s+app|the\s+service|us|our\s+\w+)?\s*off\s+(?:of\s+)?(\S+)\s+(?:onto|to|and\s+onto)\s+(\S+)(.*)$`), out: "we switched from $1 to $2$3", change: true},
	{re: lazyRegexp(`(?i)^(we)\s+left\s+(\S+(?:\s\S+)?)\s+for\s+(.+)$`), out: "$1 switched from $2 to $3", change: true},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+now\s+in\s+`), out: "I now live in ", change: true},
	{re: lazyRegexp(`(?i)^(?:it\s+is|it's)\s+(.+?)\s+for\s+(ci|tests|testing|deploys|deployment|formatting|linting)$`), out: "we use $1 for $2"},
	{re: lazyRegexp(`(?i)^make\s+it\s+`), out: "make that "},
	// rules said as complaints, questions and team habits
	{re: lazyRegexp(`(?i)^(?:it\s+)?(?:really\s+)?(?:drives me (?:nuts|crazy|mad|insane)|annoys me|bugs me|bothers me|irritates me)\s+when\s+you\s+(.+)$`), out: "never $1"},
	{re: lazyRegexp(`(?i)^i\s+(?:really\s+)?(?:hate|dislike|cannot stand|can't stand|do not like|don't like)\s+(?:it\s+)?when\s+you\s+(.+)$`), out: "never $1"},
	{re: lazyRegexp(`(?i)^you\s+(?:keep|always)\s+forget(?:ting)?\s+to\s+(.+)$`), out: "always $1"},
	{re: lazyRegexp(`(?i)^you\s+(?:keep|always)\s+forget(?:ting)?\s+(?:about\s+)?((?:the|a|an)\s+.+)$`), out: "always include $1"},
	{re: lazyRegexp(`(?i)^you\s+keep\s+(?:on\s+)?(adding|writing|using|putting|leaving|creating|inserting|generating)\s+(.+)$`), out: "stop $1 $2"},
	// wishes: "it would be great if you always ran the formatter", "I'd
	// prefer if you used pathlib" (parseInstruction reads the past)
	{re: lazyRegexp(`(?i)^(?:(?:(?:it|that)(?:'d|\s+would)|would)\s+(?:really\s+|also\s+|just\s+)?(?:be\s+(?:really\s+|very\s+|so\s+|super\s+|much\s+)?(?:great|nice|good|helpful|awesome|ideal|better|lovely|appreciated|cool)|help(?:\s+(?:a\s+lot|me|us|a\s+ton))?)|i(?:'d|\s+would)\s+(?:much\s+|really\s+)?(?:prefer|like\s+it|love\s+it|appreciate\s+it)|i(?:'d|\s+would)\s+be\s+(?:really\s+|very\s+|so\s+)?(?:grateful|thankful|happy|glad))\s+if\s+you\s+(?:could\s+|would\s+)?(.+)$`), out: "I want you to $1"},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+(?:so\s+|really\s+)?(?:tired|sick)\s+of\s+you\s+(\w+ing\s.+)$`), out: "stop $1"},
	{re: lazyRegexp(`(?i)^enough\s+(?:with\s+)?(?:the\s+|all\s+the\s+|all\s+these\s+|these\s+)?(.+?)(?:,?\s+please)?$`), out: "stop adding $1"},
	{re: lazyRegexp(`(?i)^not\s+(?:a|the)\s+(?:big\s+|huge\s+)?fan\s+of\b`), out: "I am not a fan of"},
	// an attitude said without its "I": "hate it when you rename things",
	// "love it when you explain tradeoffs"
	{re: lazyRegexp(`(?i)^(?:really\s+)?(hate|dislike|love|like|prefer|appreciate|can't\s+stand|cannot\s+stand)\s+(it\s+when|when|it\s+if)\s+you\b`), out: "I $1 $2 you"},
	{re: lazyRegexp(`(?i)^(?:can|could|would|will)\s+we\s+(?:please\s+)?not\s+(.+?)(?:,?\s+please)?$`), out: "never $1"},
	{re: lazyRegexp(`(?i)^(?:can|could|would|will)\s+you\s+(?:please\s+)?not\s+((?:\w+\s+)?(?:[a-z_.-]+\s+)?[a-z_.-]+s?(?:\s+(?:in|for|on)\s+[a-z_ .-]+)?)(?:,?\s+please)?$`), out: "never $1"},
	{re: lazyRegexp(`(?i)^(?:can|could|would|will)\s+you\s+(?:please\s+)?stop\s+(\w+ing\b.*)$`), out: "stop $1"},
	{re: lazyRegexp(`(?i)^(?:can|could|would|will)\s+you\s+(?:please\s+)?(always|never)\s+(.+?)\s+(from now on|going forward|in the future|moving forward)$`), out: "$3, $1 $2"},
	{re: lazyRegexp(`(?i)^(?:can|could)\s+we\s+(?:please\s+)?(stick to|stick with)\s+(.+)$`), out: "always $1 $2"},
	{re: lazyRegexp(`(?i)^(?:can|could)\s+we\s+(?:please\s+)?(always|never)\s+(.+)$`), out: "$1 $2"},
	// a change told as a decision or a rewrite: "the team decided to use
	// Bun from now on", "the frontend was rewritten in Svelte"
	{re: lazyRegexp(`(?i)^(?:we|the\s+team|our\s+team|i)\s+(?:have\s+|has\s+|finally\s+)*(?:decided|agreed|chose)\s+to\s+(?:use|go\s+with|switch\s+to|move\s+to|adopt|standardi[sz]e\s+on)\s+([\w.+#-]+(?:\s[\w.+#-]+)?)(?:\s+(?:from\s+now\s+on|going\s+forward|for\s+everything))?$`), out: "we switched to $1", change: true, need: []string{"decided", "agreed", "chose"}},
	{re: lazyRegexp(`(?i)^(?:the|our)\s+((?:[\w-]+\s+)?[\w-]+)\s+(?:was|got|has\s+been)\s+(?:rewritten|ported|migrated|moved|redone)\s+(?:in|to|into)\s+(.+)$`), out: "we rewrote the $1 in $2", change: true, need: []string{"rewritten", "ported", "migrated", "moved", "redone"}},
	// a wish about how things of a kind are: "it'd be nice if commits
	// were signed"
	{re: lazyRegexp(`(?i)^(?:it(?:'d|\s+would)\s+be\s+(?:really\s+)?(?:nice|great|good|ideal|better|helpful)|i(?:'d|\s+would)\s+(?:like|love|prefer)(?:\s+it)?)\s+if\s+(?:all\s+|our\s+|the\s+)?((?:[\w-]+\s+)?(?:commits|prs|pull\s+requests|functions|tests|branches|messages|docs|comments|migrations|endpoints|components|files|modules|classes|methods|dependencies|releases|tags))\s+(?:were|are|was|got)\s+(.+)$`), out: "$1 should be $2", need: []string{" if "}},
	// a team's or a person's stance on a way of working: "the team likes
	// small PRs", "I'm a big believer in small commits", "we try not to
	// use mocks", "we stay away from class components", "we're not fans
	// of deep inheritance", "I hate when people commit commented-out
	// code"
	{re: lazyRegexp(`(?i)^(?:our|the|my)\s+team\s+(?:really\s+)?(?:likes|loves|prefers|wants|favou?rs)\s+((?:[\w-]+\s+){0,3}(?:prs|pull\s+requests|commits|functions|tests|components|files|modules|classes|methods|diffs|branches|messages|names|types|docs|comments|reviews|changes))$`), out: "prefer $1", need: []string{"team"}},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+(?:a\s+)?(?:big|huge|firm|strong|true)\s+believer\s+in\s+((?:[\w-]+\s+){0,3}(?:[\w-]+s|tdd|testing|typing|review|documentation|refactoring|pairing))$`), out: "prefer $1", need: []string{"believer"}},
	{re: lazyRegexp(`(?i)^(?:we|i)\s+(?:try|aim|strive|do\s+our\s+best|do\s+my\s+best)\s+not\s+to\s+(.+)$`), out: "never $1", need: []string{" not to "}},
	{re: lazyRegexp(`(?i)^(?:we|i)\s+(?:(?:try|tend)\s+to\s+)?(?:stay|steer|keep)\s+(?:well\s+)?(?:away|clear)\s+(?:from|of)\s+((?:[a-su-z][\w.-]*|t[a-gi-z][\w.-]*|th[a-df-z][\w.-]*|the[\w.-]+)(?:\s+[\w-]+){0,2})$`), out: "avoid $1", need: []string{"away", "clear"}}, // a kind, three words at most, not "the …"
	{re: lazyRegexp(`(?i)^(?:we(?:'re|\s+are)|i(?:'m|\s+am))\s+not\s+(?:big\s+|huge\s+|really\s+)?fans?\s+of\s+(.+)$`), out: "avoid $1", need: []string{" fan"}},
	{re: lazyRegexp(`(?i)^(?:i|we)\s+(?:really\s+)?(?:hate|dislike|can't\s+stand|cannot\s+stand|don't\s+like|do\s+not\s+like)\s+(?:it\s+)?when\s+(?:people|folks|devs|developers|engineers|contributors)\s+((?:commit|push|merge|leave|add|write|use|skip|ignore|copy|paste|hardcode|hard-code|force|rename|delete|remove|change|touch|break|mix|check\s+in|open|close|squash|rebase|bump|disable|comment|log|print|catch|swallow|mock|import|reformat|edit|modify)\s+.+)$`), out: "never $1", need: []string{" when "}},
	{re: lazyRegexp(`(?i)^(?:our|the|my)\s+team\s+(\w+s)\s+(.+)$`), out: "in this team we $1 $2"},
	{re: lazyRegexp(`(?i)^(.+?),?\s+(?:that\s+is|that's)\s+the\s+rule$`), out: "our rule: $1"},
	{re: lazyRegexp(`(?i)^i\s+(?:really\s+)?(?:like|love|prefer)\s+(?:it\s+)?when\s+you\s+(.+)$`), out: "I would rather you $1"},
	{re: lazyRegexp(`(?i)^(we|i)\s+(squash-merge|rebase-merge|squash)(?:\s+(?:everything|all\s+prs|prs|pull\s+requests))?$`), out: "$1 always $2 pull requests"},
	{re: lazyRegexp(`(?i)^(short|shorter|concise|brief)\s+(answers|responses|replies)(?:,?\s+please)?$`), out: "always give $1 $2"},
	// names given as what people call the person: "They call me Alex",
	// "you can call me Sam", "Name's Dana"
	{re: lazyRegexp(`^(?i:(?:you\s+can\s+|please\s+|just\s+)?call\s+me|(?:they|people|everyone|everybody|friends|most\s+people)\s+call\s+me|name(?:'s|\s+is))\s+([A-Z][\w'-]+)$`), out: "my name is $1"},
	// tastes said as chat: "Big fan of Elixir here", "Python is my jam",
	// "I'd pick Postgres over Mongo any day"
	{re: lazyRegexp(`(?i)^(?:a\s+)?(?:big|huge|massive|long-?time)\s+fan\s+of\s+(.+?)(?:\s+here)?$`), out: "I am a big fan of $1"},
	{re: lazyRegexp(`(?i)^(.+?)\s+is\s+(?:totally\s+|really\s+)?my\s+(?:jam|thing|jam\s+tbh)$`), out: "I love $1", need: []string{"my jam", "my thing"}},
	{re: lazyRegexp(`(?i)^i(?:'d|\s+would)\s+(?:always\s+)?(?:pick|choose|take)\s+([\w.+#-]+(?:\s[\w.+#-]+)?)\s+over\s+([\w.+#-]+(?:\s[\w.+#-]+)?)(?:\s+any\s+day|\s+every\s+time)?$`), out: "I prefer $1 over $2"},
	// a person named right after the noun of their slot: "my boss Karen
	// wants the report", "I work remote from Austin"
	{re: lazyRegexp(`^(?i:my)\s+(manager|boss|lead|team\s+lead|tech\s+lead)\s+([A-Z][\w'-]+(?:\s[A-Z][\w'-]+)?)\s+[a-z].*$`), out: "my $1 is $2"},
	{re: lazyRegexp(`(?i)^i\s+(?:work|am\s+working)\s+(?:fully\s+)?remote(?:ly)?\s+(?:from|out\s+of|in)\s+([A-Z][\w.'-]*(?:\s[A-Z][\w.'-]*)?)(?:,.*)?$`), out: "I am working from $1"},
	// a name given for someone just named: "oops, her name is Karin"
	{re: lazyRegexp(`(?i)^(?:her|his|their)\s+name(?:'s|\s+is)\s+(?:actually\s+)?(?:spelled\s+)?([A-Z][\w'-]+)$`), out: "it's $1"},
	// a role said with how the person earns it: "I'm an ML engineer by
	// trade", "By day I'm a QA engineer", "I'm the CTO of a small
	// startup", "I do data engineering at a bank"
	{re: lazyRegexp(`(?i)^(.+?)\s+by\s+(?:trade|profession|training|day)$`), out: "$1", need: []string{" by "}},
	{re: lazyRegexp(`(?i)^(?:by\s+(?:day|trade|profession)|professionally|for\s+work|at\s+work),?\s+(i(?:'m|\s+am)\s+.+)$`), out: "$1"},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+the\s+((?:[a-z][\w-]*\s+){0,2}(?:cto|ceo|cpo|coo|founder|co-?founder|maintainer|lead|manager|director|architect|engineer|developer|dev|designer|admin|sre|pm|head\s+of\s+\w+|vp\s+of\s+\w+))\s+(?:of|at|for|on)\s+(?:a|an|the|our|my)\s+.+$`), out: "I am a $1"},
	{re: lazyRegexp(`(?i)^i\s+do\s+(?:mostly\s+|mainly\s+)?([a-z]+)\s+engineering(?:\s+(?:at|for)\s+.+)?(?:,.*)?$`), out: "I am a $1 engineer"},
	{re: lazyRegexp(`(?i)^i\s+do\s+(?:mostly\s+|mainly\s+)?([a-z]+)\s+development(?:\s+(?:at|for)\s+.+)?(?:,.*)?$`), out: "I am a $1 developer"},
	{re: lazyRegexp(`(?i)^i\s+do\s+(?:mostly\s+|mainly\s+)?([a-z]+)\s+design(?:\s+(?:at|for)\s+.+)?(?:,.*)?$`), out: "I am a $1 designer"},
	{re: lazyRegexp(`(?i)^i\s+do\s+(?:mostly\s+|mainly\s+)?([a-z]+)\s+research(?:\s+(?:at|for)\s+.+)?(?:,.*)?$`), out: "I am a $1 researcher"},
	{re: lazyRegexp(`(?i)^i\s+do\s+(?:mostly\s+|mainly\s+)?([a-z]+)\s+science(?:\s+(?:at|for)\s+.+)?(?:,.*)?$`), out: "I am a $1 scientist"},
	{re: lazyRegexp(`(?i)^i\s+do\s+(?:mostly\s+|mainly\s+)?([a-z]+)\s+analytics(?:\s+(?:at|for)\s+.+)?(?:,.*)?$`), out: "I am a $1 analyst"},
	// "Hi, I'm Lukas from Berlin": where someone is from is no address;
	// "Originally from Lagos, now in London": the now is
	{re: lazyRegexp(`^(?i:i(?:'m|\s+am))\s+([A-Z][a-z]+)\s+from\s+.+$`), out: "I'm $1"},
	{re: lazyRegexp(`(?i)^now\s+(?:in|based\s+in|living\s+in)\s+([A-Z][\w.' -]*)$`), out: "I live in $1"},
	// "node 20 is the minimum": the version the project targets
	{re: lazyRegexp(`(?i)^([a-z.#+]+)\s+v?(\d+(?:\.\d+)*)\+?\s+is\s+(?:the\s+|our\s+)?(?:minimum|min|baseline|target|floor|lowest\s+supported(?:\s+version)?|required(?:\s+version)?|minimum\s+supported(?:\s+version)?)$`), out: "the minimum supported $1 version is $2"},
	// who and where, said in chat: "Dana here", "I lead the infra team at
	// Zalando", "home is Nairobi these days", "currently working out of
	// Singapore", "The boss is Marco"
	{re: lazyRegexp(`^([A-Z][a-z]+)\s+here$`), out: "my name is $1"},
	{re: lazyRegexp(`(?i)^i\s+(?:lead|run|manage|head|am\s+on|work\s+on|joined)\s+(?:the|a|an)\s+[\w -]+?\s+(?:team|group|squad|org)\s+(?:at|@)\s+([A-Z][\w.&-]*(?:\s[A-Z][\w.&-]*)?)$`), out: "I work at $1"},
	{re: lazyRegexp(`(?i)^home(?:\s+base)?\s+(?:is|=)\s+([A-Z][\w.' -]*?)(?:\s+(?:now|these\s+days|nowadays))?$`), out: "I live in $1"},
	{re: lazyRegexp(`(?i)^(?:currently|now|these\s+days)\s+(?:working|living)\s+(?:out\s+of|from|in)\s+([A-Z][\w.' -]*)$`), out: "I am working from $1"},
	{re: lazyRegexp(`(?i)^the\s+(boss|manager|team\s+lead|lead)\s+(?:here\s+)?is\s+([A-Z][\w'-]+(?:\s[A-Z][\w'-]+)?)$`), out: "my $1 is $2"},
	// habits asked for in other words: "Please make it a habit to run the
	// linter", "Comments in English only"
	{re: lazyRegexp(`(?i)^(?:please\s+)?make\s+(?:it\s+a\s+habit|a\s+habit\s+of\s+it|it\s+a\s+rule)\s+to\s+(.+)$`), out: "always $1"},
	{re: lazyRegexp(`(?i)^(?:please\s+)?make\s+a\s+habit\s+of\s+(\w+ing\b.*)$`), out: "always $1"},
	{re: lazyRegexp(`(?i)^([a-z][a-z -]*?s)\s+(in|with|using)\s+([\w.+#-]+)\s+only$`), out: "always write $1 $2 $3", need: []string{" only"}},
	// working preferences in the words people use for them: "It helps me
	// when you explain the tradeoffs", "I learn best with examples",
	// "I'm happier with fewer
	// abstractions", "Less magic, more explicit code", "I'd like
	// explanations to be brief", "I value readability over cleverness",
	// "We lean towards composition", "Ideally, keep PRs under 400 lines",
	// "My preference is for functional style"
	{re: lazyRegexp(`(?i)^(?:it\s+(?:really\s+)?helps(?:\s+me)?(?:\s+a\s+lot)?|i\s+find\s+it\s+(?:much\s+)?(?:easier|helpful|clearer|better|nicer)|it(?:'s|\s+is)\s+(?:much\s+)?(?:easier|better|clearer|more\s+helpful|nicer)\s+for\s+me)\s+(?:when|if)\s+you\s+(.+)$`), out: "I would rather you $1"},
	{re: lazyRegexp(`(?i)^i\s+(?:learn|work|understand|follow)\s+(?:best|better)\s+(?:with|from|through)\s+(.+)$`), out: "prefer $1"},
	{re: lazyRegexp(`(?i)^i(?:'m|\s+am)\s+(?:much\s+|a\s+lot\s+|way\s+)?(?:happier|more\s+comfortable|more\s+productive)\s+with\s+((?:fewer|less|more|smaller|shorter|simpler)\s+.+)$`), out: "prefer $1"},
	{re: lazyRegexp(`(?i)^less\s+([a-z][a-z -]*?),\s+more\s+([a-z][a-z -]*?)(?:,?\s+please)?$`), out: "prefer more $2 over $1"},
	{re: lazyRegexp(`(?i)^i(?:'d|\s+would)\s+(?:like|love|prefer|want)\s+([a-z][a-z -]*?s)\s+to\s+(?:be|stay)\s+(.+)$`), out: "keep $1 $2"},
	{re: lazyRegexp(`(?i)^(?:i|we)\s+(?:really\s+)?(?:value|favou?r|lean\s+towards?|lean\s+toward|gravitate\s+towards?)\s+(.+)$`), out: "prefer $1"},
	{re: lazyRegexp(`(?i)^(?:as\s+a\s+team|as\s+a\s+rule|typically|usually|generally|normally),?\s+(we\s+.+)$`), out: "$1", standing: true},
	{re: lazyRegexp(`(?i)^ideally,?\s+((?:keep|use|write|avoid|prefer|add|put|make|run|split|name|stick)\b.+)$`), out: "prefer to $1"},
	{re: lazyRegexp(`(?i)^(?:my|our)\s+preference\s+is\s+(?:for\s+)?(.+)$`), out: "prefer $1"},
	// an evaluation of a way of working: "it's better to ask before
	// deleting anything", "it's best to pin versions"
	{re: lazyRegexp(`(?i)^(?:it(?:'s|\s+is)|it\s+would\s+be|it'd\s+be)\s+(?:always\s+|usually\s+|generally\s+|much\s+|way\s+)?(?:better|best|preferable|wiser|safer|good\s+practice|best\s+practice|standard\s+practice|the\s+norm)(?:\s+here|\s+in\s+this\s+(?:repo|codebase|project|team))?\s+to\s+(.+)$`), out: "always $1"},
	// what the person never wants to see: "I never want to see print
	// statements in production code"
	{re: lazyRegexp(`(?i)^i\s+(?:never|don't\s+ever|do\s+not\s+ever|don't|do\s+not)\s+want\s+to\s+see\s+(?:any\s+)?(.+)$`), out: "avoid $1"},
	// one kind over another, said bare: "Tabs, not spaces", "single
	// quotes, not double quotes"
	{re: lazyRegexp(`(?i)^((?:[a-z][a-z-]*\s+)?[a-z][a-z-]*[a-z]s),?\s+(?:not|never|no)\s+([a-z][a-z -]*?[a-z]s)(?:,?\s+(?i:please))?$`), out: "always use $1 instead of $2", need: []string{" not ", " never ", " no "}},
	// a default for when the person is unsure: "When in doubt, ask me"
	{re: lazyRegexp(`(?i)^(?:when|if)\s+(?:in\s+doubt|unsure|not\s+sure|you(?:'re|\s+are)\s+(?:unsure|not\s+sure|in\s+doubt))\s*,?\s+(.+)$`), out: "always $1 when in doubt"},
	// a statement with its reason after it: "we use postgres because
	// it's reliable", "we're pinned to Python 3.11 because of a C
	// extension that won't build on newer"; the reason says nothing of
	// the value, and its words ("won't", "was slow") made the whole read
	// as a plan or the past
	{re: lazyRegexp(`(?i)^(.+?)\s*,?\s+(?:because|'cause|cause|cuz|coz)\s+.+$`), out: "$1", statement: true, need: []string{"because", "cause", "cuz", "coz"}},
	{re: lazyRegexp(`(?i)^(.+?)\s*,?\s+since\s+(?:it|it's|they|they're|we|we're|i|i'm|that|this|the\s+[\w-]+(?:\s+[\w-]+)?\s+(?:is|was|are|were|has|had|does|did|got|gets|keeps|won't|can't|kept))\s+.+$`), out: "$1", statement: true, need: []string{"since"}},
	// a new employer said after the change of job: "i changed jobs, now
	// at Grafana Labs", "switched companies, I'm at Shopify now"
	{re: lazyRegexp(`(?i)^(?:i\s+)?(?:have\s+|just\s+|finally\s+|recently\s+)*(?:changed|switched|got\s+a\s+new|started\s+a\s+new|moved)\s+(?:jobs?|companies|employers?)\s*[,;-]?\s+(?:and\s+)?(?:i(?:'m|\s+am)\s+)?(?:now\s+)?(?:at|with|working\s+at|working\s+for|joined)\s+(.+?)(?:\s+now)?$`),
		out: "i work at $1 now", change: true, statement: true, need: []string{"job", "compan", "employer"}},
	// a licence the person's work rules out: "I can't use GPL stuff at
	// work", "we can't ship anything AGPL"; what they cannot use is what
	// Claude should not suggest
	{re: lazyRegexp(`(?i)^(?:i|we)\s+(?:can't|can’t|cannot|cant|can\s+not|am\s+not\s+allowed\s+to|are\s+not\s+allowed\s+to|'m\s+not\s+allowed\s+to|'re\s+not\s+allowed\s+to|must\s+not|mustn't)\s+(?:use|ship|include|add|pull\s+in|depend\s+on|bring\s+in|touch)\s+(?:any\s+|anything\s+)?(gpl|agpl|lgpl|sspl|copyleft|gplv[23]|agplv3)(?:[- ]licen[sc]ed)?(?:\s+(?:stuff|code|libraries|libs|packages|dependencies|deps|software|things|modules|crates))?(?:\s+(?:at\s+work|here|in\s+this\s+(?:repo|codebase|project)|for\s+work))?(?:\s*[,;].*)?$`),
		out: "never use $1-licensed code", standing: true, statement: true, need: []string{"gpl", "copyleft", "sspl"}},
	// a thing the person is not allowed, or cannot, use where they work:
	// "I'm not allowed to use Docker on my work machine", "we can't use
	// lodash here". "I can't use the debugger, it crashes" says what is
	// broken, not what is ruled out, so "cannot" needs the place.
	{re: lazyRegexp(`(?i)^(?:i|we)(?:'m|'re|\s+am|\s+are)?\s+not\s+(?:allowed|permitted)\s+to\s+(use|install|run|add)\s+((?:[\w.+#-]+\s+)?[\w.+#-]+)(?:\s+(?:at\s+work|here|on\s+(?:my|our|this|the)\s+(?:work\s+)?(?:machine|laptop|computer|box|server|network)|in\s+this\s+(?:repo|codebase|project)|for\s+(?:legal|licensing|compliance|security)\s+reasons))?(?:\s*[,;].*)?$`),
		out: "never $1 $2", standing: true, statement: true, need: []string{"allowed", "permitted"}},
	{re: lazyRegexp(`(?i)^(?:i|we)\s+(?:can't|can’t|cannot|cant|can\s+not)\s+(use|install|run|add)\s+((?:[\w.+#-]+\s+)?[\w.+#-]+)\s+(?:at\s+work|here|on\s+(?:my|our|this|the)\s+(?:work\s+)?(?:machine|laptop|computer|box|server|network)|in\s+this\s+(?:repo|codebase|project)|for\s+(?:legal|licensing|compliance|security)\s+reasons)(?:\s*[,;].*)?$`),
		out: "never $1 $2", standing: true, statement: true, need: []string{"can't", "can’t", "cannot", "cant", "can not"}},
	// a ban over everything Claude writes, or "ever": "no emoji in
	// anything you write for me, ever", "zero emoji anywhere in your
	// replies", "no emoji, ever" are the ban "no emoji"
	{re: lazyRegexp(`(?i)^(?:no|zero)\s+([\w.-]+(?:\s+[\w.-]+)?)(?:\s+(?:in\s+(?:anything|everything|whatever|all(?:\s+the\s+stuff)?|any(?:\s+of\s+the)?\s+(?:stuff|code|text|things))\s+(?:that\s+)?you\s+(?:write|produce|generate|send|make|give\s+me|show\s+me)(?:\s+(?:for|to)\s+me)?|anywhere(?:\s+in\s+(?:your|the|my)\s+[\w-]+)?))?(?:,?\s+ever)?(?:\s*[,;.].*)?$`),
		out: "no $1", standing: true, statement: true, need: []string{"anything", "everything", "anywhere", "ever", "whatever"}},
}

// standingLeadRe opens a clause with the time from which a rule holds.
var standingLeadRe = lazyRegexp(`(?i)^(?:going forward|from now on|from here on|moving forward|in future|in the future)\s*[,:-]?\s+`)

// gerundOf rewrites: "would you mind keeping answers short going forward?"
var wouldYouMind = lazyRegexp(`(?i)^would\s+you\s+mind\s+(?:always\s+)?(\w+ing)\s+(.+?)(?:\s+(going forward|from now on|in the future|moving forward))?$`)

// futureModal turns a change announced for a date into the change itself:
// "we'll deploy from release" is "we deploy from release" once "from next
// sprint" has said when.
var futureModals = []struct {
	re  func() *regexp.Regexp
	out string
}{
	{lazyRegexp(`(?i)\bwe(?:'ll|\s+will)\s+be\s+(\w+ing)\b`), "we $1"},
	{lazyRegexp(`(?i)\bwe(?:'ll|\s+will)\s+be\b`), "we are"},
	{lazyRegexp(`(?i)\bi(?:'ll|\s+will)\s+be\b`), "I am"},
	{lazyRegexp(`(?i)\b(we|i)(?:'ll|\s+will)\s+`), "$1 "},
	{lazyRegexp(`(?i)\b(\w+)\s+will\s+be\b`), "$1 is"},
	{lazyRegexp(`(?i)\bbecomes\b`), "is"},
	{lazyRegexp(`(?i)\bi(?:'m|\s+am)\s+moving\s+to\b`), "I moved to"},
	{lazyRegexp(`(?i)\bi(?:'m|\s+am)\s+(?:at|with)\s+([A-Z])`), "I work at $1"},
	{lazyRegexp(`(?i)\bwe(?:'re|\s+are)\s+(switch|mov|migrat)ing\b`), "we ${1}ed"},
	{lazyRegexp(`(?i)\b(we|i)\s+(switch|mov|migrat)e?\s+(to|from|over)\b`), "$1 ${2}ed $3"},
	{lazyRegexp(`(?i)\bwe\s+(formatting|linting|deploying|testing)\s+with\b`), "we $1 with"},
}

// rewordings returns the clause read again in plain words: the whole
// clause, then the words before its first comma when what follows is an
// aside of its own ("Next month I'm moving to Rotterdam, the contract is
// signed").
func rewordAll(rc rawClause) []clause {
	var out []clause
	if c, ok := reword(rc); ok {
		out = append(out, c)
	}
	for _, sep := range []string{", ", " and "} {
		head, tail, ok := strings.Cut(rc.text, sep)
		if !ok || len(strings.Fields(head)) < 3 || limitingTail().MatchString(tail) {
			continue // "we deploy to Fly, if the build passes" keeps its condition
		}
		h := rawClause{text: head, question: rc.question}
		if c, ok := reword(h); ok {
			out = append(out, c)
		} else {
			out = append(out, analyze(h))
		}
		out[len(out)-1].span = strings.TrimSpace(rc.text)
	}
	return out
}

// terseSlot: "tz = CET", "editor: neovim", "mgr is Dana", "runtime deno"
// (after the abbreviations are spelled out).
var terseSlot = lazyRegexp(`(?i)^(?:my\s+|our\s+)?(timezone|manager|boss|editor|database|ci|runtime|formatter|linter|package manager|test runner|language|framework)\s*(?:=|:|\s)\s*(?:is\s+)?(\S+(?:\s\S+)?)$`)

var personalSlot = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"timezone": true, "manager": true, "boss": true, "editor": true}
})

// terseValue says whether v can be the value of the slot in a terse
// statement: a tool for a tool slot, a name for a person, a zone for a
// time zone; "db is down" and "ci is red again" state no value.
func terseValue(slot, v string) bool {
	switch slot {
	case "manager", "boss":
		return !strings.Contains(v, " ") && v[0] >= 'A' && v[0] <= 'Z'
	case "timezone":
		return timezoneLike().MatchString(strings.ToLower(v)) && (strings.ToUpper(v) == v || strings.ContainsAny(v, "/+-0123456789"))
	}
	_, ok := lookupTool(strings.ToLower(v))
	return ok
}

// bareToolNow: "biome these days", "uv now" after the slot's old value.
// toolFromNow is a tool, maybe with its version, and a particle of change
// ("node 22 from now on", "bun going forward, 1.1 is eol"), with the old
// version said to be at its end.
var toolFromNow = lazyRegexp(`^([a-z][\w.+#-]*)((?:\s+v?\d+(?:\.\d+)*)?)\s+(?:from now on|going forward|from here on|moving forward|from today)(?:\s*,\s*(?:(v?\d+(?:\.\d+)*) is (?:eol|dead|gone|deprecated|end of life|unsupported|out)|.*))?$`)

// prodRunsOn: "prod runs on k8s", "production is hosted on Fly".
var prodRunsOn = lazyRegexp(`^(?:our |the )?(?:prod|production)(?: env| environment| cluster)? (?:runs|is running|is hosted|is deployed|lives|sits) (?:on|in|at) ([a-z0-9.+# -]+?)(?: now| these days)?$`)

// toolHere is a tool with its version, said of the repository without a
// verb: "Python 3.9 for this project", "node 20 here".
var toolHere = lazyRegexp(`^([a-z][\w.+#-]*) (v?\d+(?:\.\d+)*) (?:for this (?:project|repo|one|service|app|codebase)|here|in this (?:repo|project|codebase)|in here)$`)

var bareToolNow = lazyRegexp(`(?i)^([\w.+-]+(?:\s[\w.+-]+)?)\s+(?:these days|nowadays|now)$`)

// limitingTail opens what limits or doubts the words before it.
var limitingTail = lazyRegexp(`(?i)^(?:if|unless|when|whenever|once|until|in case|as long as|only|or|maybe|probably|perhaps|possibly|i think|i guess|not sure|hopefully|right|i hope|but only|at least|for now|for the moment|temporarily|just for)\b`)

// teamVerb: "in this team we writes …" after "our team writes …".
var teamVerb = lazyRegexp(`(?i)^(?:in this team )?we ((?:always |never )?)(\w+s)\b`)

// habitWords make what a team does a habit: "for every decision".
var habitWords = lazyRegexp(`(?i)\b(?:every|each|always|never|all (?:our|the)|before|after)\b`)

// noMore: "no more TODO comments please".
var noMore = lazyRegexp(`(?i)^no\s+more\s+(.+?)(?:,?\s+please)?$`)

// reword returns the clause read again in plain words, and whether any
// rewrite applied.
func reword(rc rawClause) (clause, bool) {
	t := strings.TrimSpace(rc.text)
	if loc := standingLeadRe().FindStringIndex(t); loc != nil && noMore().MatchString(t[loc[1]:]) {
		t = t[loc[1]:] // "going forward, no more inline styles": the ban lasts anyway
	}
	if m := noMore().FindStringSubmatch(t); m != nil && !notBans()[strings.ToLower(firstWord(m[1]))] &&
		(strings.HasSuffix(m[1], "s") || strings.HasSuffix(strings.ToLower(t), "please")) && !strings.Contains(m[1], " for ") {
		if _, tool := lookupTool(strings.ToLower(m[1])); tool {
			t = "we no longer use " + m[1] // "no more yarn"
		} else {
			t = "stop adding " + m[1] // "no more TODO comments please"
		}
	}
	var change, correction, standing, future bool
	lower := strings.ToLower(t)
	for _, w := range rewordings {
		if len(w.need) > 0 && !containsAny(lower, w.need...) || w.statement && rc.question {
			continue // a cheap test first: most clauses hold none of its words
		}
		if !w.re().MatchString(t) {
			continue
		}
		n := strings.TrimSpace(w.re().ReplaceAllString(t, w.out))
		if n == t || n == "" {
			continue
		}
		t, lower = n, strings.ToLower(n)
		change = change || w.change
		correction = correction || w.correction
		standing = standing || w.standing
		future = future || w.future
	}
	if m := terseSlot().FindStringSubmatch(t); m != nil && terseValue(strings.ToLower(m[1]), m[2]) {
		owner := "our"
		if personalSlot()[strings.ToLower(m[1])] {
			owner = "my"
		}
		t = owner + " " + m[1] + " is " + m[2] // "tz = CET", "runtime deno"
	}
	if m := teamVerb().FindStringSubmatch(t); m != nil && habitWords().MatchString(t) {
		if v, ok := thirdPersonBase(strings.ToLower(m[2])); ok && (strings.HasPrefix(t, "in this team ") || strings.HasSuffix(t, " in this team")) {
			t = t[:len(m[0])-len(m[2])] + v + t[len(m[0]):] // "in this team we writes …", "we always reviews … in this team"
		}
	}
	if m := wouldYouMind().FindStringSubmatch(t); m != nil && (m[3] != "" || strings.Contains(strings.ToLower(t), " mind always ")) {
		if base, ok := baseOfGerund(strings.ToLower(m[1])); ok {
			t, standing = base+" "+m[2], true
			if m[3] != "" {
				t = m[3] + ", " + t
			}
		}
	}
	if future {
		for _, m := range futureModals {
			t = m.re().ReplaceAllString(t, m.out)
		}
		t = strings.ReplaceAll(t, "we formatting with", "we format with")
		t = strings.ReplaceAll(t, "we deploying", "we deploy")
	}
	if t == strings.TrimSpace(rc.text) {
		return clause{}, false
	}
	question := rc.question && !standing && !strings.HasPrefix(strings.ToLower(t), "never ") &&
		!strings.HasPrefix(strings.ToLower(t), "stop ") && !strings.HasPrefix(strings.ToLower(t), "always ") &&
		!strings.Contains(strings.ToLower(t), "from now on,") && !strings.Contains(strings.ToLower(t), "going forward,")
	c := analyze(rawClause{text: t, question: question})
	c.span = strings.TrimSpace(rc.text)
	c.change = c.change || change
	c.correction = c.correction || correction
	c.standing = c.standing || standing
	return c, true
}

// baseOfGerund is the verb of a gerund an instruction can open with:
// "keeping" is "keep", "writing" is "write", "putting" is "put".
func baseOfGerund(g string) (string, bool) {
	stem, ok := strings.CutSuffix(g, "ing")
	if !ok || stem == "" {
		return "", false
	}
	cands := []string{stem, stem + "e"}
	if n := len(stem); n >= 2 && stem[n-1] == stem[n-2] {
		cands = append(cands, stem[:n-1])
	}
	for _, v := range cands {
		if imperativeVerbs()[v] || moreVerbs()[v] {
			return v, true
		}
	}
	return "", false
}
