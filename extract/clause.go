package extract

import (
	"regexp"
	"strings"
	"sync"

	"github.com/credence-mem/credence/embed"
)

// clause is one raw clause prepared for matching: lower case, contractions
// expanded, discourse fillers stripped, with what the stripped words said
// about it kept as flags.
type clause struct {
	span       string // as written
	text       string // normalised working text
	question   bool   // ended in '?'
	correction bool   // "actually", "sorry", "correction:", "I meant"
	meant      bool   // "I meant ...": a bare object may correct the previous fact
	hedged     bool   // "I think", "pretty sure", "probably": stated but unsure
	standing   bool   // "from now on", "going forward", "by default", "every time"
	change     bool   // "as of today", "starting this week": what follows is a change
	directive  bool   // "remember:", "note:", "FYI", "keep in mind", "for future reference"
	jobNews    bool   // the text said the person changed jobs: "I'm at Figma" names the employer
}

var contractions = strings.NewReplacer(
	"can't", "cannot", "won't", "will not", "ain't", "is not", "shan't", "shall not",
	"n't", " not", "i'm", "i am", "'re", " are", "'ve", " have", "'ll", " will", "'d", " would",
	"it's", "it is", "that's", "that is", "what's", "what is", "there's", "there is",
	"let's", "let us", "name's", "name is", "here's", "here is", "who's", "who is",
	"he's", "he is", "she's", "she is",
)

// slotIs is a slot noun with "'s" for "is" before a number ("port's
// 8001", "node's 20"): a possessive is followed by a noun, not a figure.
var slotIs = lazyRegexp(`\b(port|version|timezone|tz|editor|manager|boss|db|database|ci|branch|runtime|shell|os|linter|formatter|bundler|framework|lang|language|stack|cloud|host|hosting|registry|region|namespace|cluster)'s (\d)`)

// policyIs opens a rule said as the house's policy: "our policy is no
// deploys on friday", "the convention is: always rebase".
var policyIs = lazyRegexp(`^(?:our|the|team|house|company) (?:policy|rule|convention|practice|standard) (?:here )?is:? (?:that )?((?:no|never|always|do not|only) )`)

// insteadFront is the alternative said first: "instead of mocks use
// fakes".
var insteadFront = lazyRegexp(`^instead of ([\w.+#/-]+(?: [\w.+#/-]+)?),? use (.+)$`)

// nameIs is a name with "'s" for "is" before what it is to the speaker:
// "Sara's my manager now", "the api's now on 9000", "node's on 22". A
// possessive is followed by the thing possessed, never by "my", "our",
// "now" or a preposition.
var nameIs = lazyRegexp(`\b([a-z][a-z0-9-]*)'s (my|our|now|no longer|still|the new|on|in|at)\b`)

// thisOne is the project spoken of named as "this one", set against
// another the person named before: "this one builds with Maven", "…
// in this one".
var thisOne = lazyRegexp(`(^|\b(?:in|for|on) )this one\b`)

// bareToolHere is a tool named with the project's scope and nothing
// else: "styled-components in this project".
var bareToolHere = lazyRegexp(`^([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) ((?:in|for) this (?:project|repo|codebase|app|service)(?: instead| now)?)$`)

// sourceSays is a file or a document said to hold a value, in a
// correction: ".nvmrc says 20", "the lockfile says pnpm".
var sourceSays = lazyRegexp(`^(?:the |our |my )?(?:[\w-]*\.[\w.-]+|[\w.-]+/[\w./-]+|config|lockfile|lock file|dockerfile|makefile|readme|docs|manifest|package json) (?:says|said|shows|reads|has|pins|lists) ([a-z0-9][\w.+#-]*)$`)

// toolsHere is a list of tools said bare, with a scope: "mocha + chai
// here".
var toolsHere = lazyRegexp(`^([a-z0-9][\w.+#-]*)((?: (?:\+|and|&|with) [a-z0-9][\w.+#-]*)*)(?: here| now| in this (?:repo|project|codebase))?$`)

// projectManagedWith is the project, or part of the person's setup,
// said to be run with a tool: "this repo is managed with bun", "the
// monorepo is managed with Nx", "… and are managed with chezmoi".
var projectManagedWith = lazyRegexp(`^(?:(?:this|the|our|my) (?:project|repo|monorepo|codebase|service|app|workspace|dotfiles|setup) )?(?:is|are) (?:managed|built|run|handled|orchestrated|driven|set up) (?:with|by|using|via|through) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)((?:,? not [a-z0-9.+#-]+)?)(?:,.*)?$`)

// projectIsTool is the project said to be a tool: "this one's plain
// npm, no yarn".
var projectIsTool = lazyRegexp(`^(?:this project|this repo|the repo)(?: is|'s) (?:plain |just |all |pure |vanilla |straight )?([a-z0-9.+#-]+)((?:,? (?:not|no) [a-z0-9.+#-]+)?)$`)

// goesOutVia is a project said to ship through a tool: "this one goes
// out via Netlify".
var goesOutVia = lazyRegexp(`^(?:this (?:project|repo|app|service|site)|it|the (?:[a-z-]+ )?(?:app|site|service|frontend|backend|api|docs)) (?:goes out|ships|gets deployed|is deployed|gets shipped|is shipped|is released|gets released) (?:via|with|through|using|on|to) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)$`)

// stuckOn is a version the project cannot leave yet: "stuck on node 16
// until we rewrite the auth module", "we're pinned to go 1.21".
var stuckOn = lazyRegexp(`^(?:(?:we|i) (?:are|am) )?(?:still )?(?:stuck|pinned|locked|frozen) (?:on|to|at) ([a-z.#+]+ ?v?\d+(?:\.\d+)*)(?: (?:until|till|for now|for the foreseeable future|because|since) .*)?$`)

// backTo is a return to a tool: "back to plain npm with workspaces".
var backTo = lazyRegexp(`^(.+?, )?(?:(?:we|i) (?:are|am|went|moved|switched|have gone|are going|went) )?(?:right |all the way )?back to (?:plain |good old |regular |vanilla |just )?([a-z0-9.+#-]+)\b`)

// startedAt is a new employer said with when: "started at Monzo today".
var startedAt = lazyRegexp(`^(.+?, )?(?:i )?(?:just |have just |have )?(?:started|start|am starting|starting|joined) (?:at |with )?([a-z][a-z0-9&.'-]*(?: [a-z][a-z0-9&.'-]*)?) (?:today|on monday|this week|this morning|yesterday|last week|on \w+day|next week)$`)

// lastDayAt is a job left, said before the new one: "last day at klarna
// was friday".
var lastDayAt = lazyRegexp(`^(?:my )?last day at [a-z0-9&.' -]+? was [a-z]+, $|^(?:i )?(?:left|quit) [a-z0-9&.' -]+, $`)

// movedKindFrom is a kind of tool moved from one to another without an
// owner: "moved hosting from Heroku to Railway over the weekend".
var movedKindFrom = lazyRegexp(`^(?:(?:we|i) )?(?:just |finally |have )*(?:moved|switched|migrated) (?:our |my |the )?((?:[a-z0-9/-]+ )?[a-z][a-z0-9/-]*) (?:over )?from ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) to ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)(?: over the weekend| last (?:week|weekend|month|sprint|night)| yesterday| this (?:week|morning|sprint))?$`)

// deployThis is the project named "this" as what is deployed: "we
// deploy this to Render".
var deployThis = lazyRegexp(`^((?:we|i) (?:deploy|host|run|ship)) this(?: (?:thing|app|one|service|site|project))? `)

// kindBehind is a kind of tool named with the part it serves: "the
// database behind this service is CockroachDB".
var kindBehind = lazyRegexp(`^(?:the |our )?([a-z][a-z ]{1,30}?) (?:behind|for|of|in|under) (?:this|the|our) (?:service|app|project|repo|api|backend|thing|site) is ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)$`)

// gaveIn is how a person says they gave up resisting a change, before
// the change: "finally gave in and moved to fish", "we bit the bullet
// and switched to pnpm".
var gaveIn = lazyRegexp(`^(?:i |we )?((?:finally |eventually |just |have )*(?:gave in|caved|gave up|bit the bullet|took the plunge|relented|caved in)(?: and| &|,) (?:(?:finally|just) )?)(?:moved|switched|migrated|went over|changed|jumped) `)

// movedWhole is the person's whole way of working moved to a tool:
// "moved my whole setup over to emacs", "we migrated our dotfiles to
// chezmoi".
var movedWhole = lazyRegexp(`^(?:(i|we) )?(?:have |just |finally |recently )*(?:moved|switched|migrated|ported) (?:my|our) (?:whole |entire )?(?:setup|workflow|config|configs|dotfiles|stuff|dev setup|dev environment|environment|editing|everything|daily driving) (?:over )?to (.+)$`)

// goodbyeTail is a tool bid farewell after the one moved to:
// "emacs, goodbye vscode".
var goodbyeTail = lazyRegexp(`^([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?),? (?:goodbye|bye bye|bye|so long|farewell|rip) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)$`)

// relocated is a move said without its subject, or with an "ago" after
// it: "relocated to Da Nang a couple months ago".
var relocated = lazyRegexp(`^(i |we )?(relocated|moved) (?:back |over )?to (.+)$`)

// agoTail is when a move happened, said after its place.
var agoTail = lazyRegexp(`\s+(?:(?:about |almost |over |nearly )?(?:a couple(?: of)?|a few|a|an|one|two|three|four|five|six|several|some|\d+) (?:days|weeks|months|years|day|week|month|year) ago|last (?:week|month|year|spring|summer|fall|autumn|winter))$`)

// goingThrough is a way work goes, said in the progressive: "deploys are
// going through spinnaker".
var goingThrough = lazyRegexp(`\b(?:are|is) (?:now |all )?going (through|via) `)

// notPlain is a value set against the plain kind of the one before it:
// "neovim really, not plain vim" sets neovim against vim.
var notPlain = lazyRegexp(`(?:\s+(?:really|actually|technically|tbh|though))?(,\s+not\s+)(?:plain|regular|normal|vanilla|good old|classic|just)\s+|\s+(?:really|actually|technically|tbh|though)(,\s+not\s+)`)

// machineRuns is the person's machine named with what it runs: "my
// laptop runs arch linux".
var machineRuns = lazyRegexp(`^my (?:work |personal |main |home |new |daily )?(?:laptop|machine|computer|desktop|box|pc|mac|workstation|rig|dev box) (?:runs|is running|is on|runs on) (.+)$`)

// workingAs is a role said as work done: "i am working as staff
// engineer in the platform team", "i have been working as a data
// engineer".
var workingAs = lazyRegexp(`^i (?:am working|am currently working|currently work|have been working|am employed|work) as (.+)$`)

// toFromVersion is a version change said new value first: "bumped the
// repo to java 21 from 17".
var toFromVersion = lazyRegexp(`^((?:we|i) (?:have |just |finally )*(?:bumped|upgraded|downgraded|moved|migrated|updated)(?: the (?:repo|project|codebase|app|service))?) to ([a-z.#+]+ )v?(\d+(?:\.\d+)*) from (?:[a-z.#+]+ )?v?(\d+(?:\.\d+)*)$`)

// forNowSlot is a person who holds a slot for the time being: "Idris is
// my manager for now".
var forNowSlot = lazyRegexp(`^(.+ is (?:my|our) [a-z]+(?: [a-z]+)?) (?:for now|for the time being|for a while|temporarily|in the meantime)$`)

// droppedSubject is a present perfect said without its "I have":
// "been using Helix since spring", "have been deploying with fly".
var droppedSubject = lazyRegexp(`^(?:have |has )?been ((?:using|on|running|deploying|hosting|daily driving|driving|writing|coding|typing|playing|working (?:in|with|on)|living in|based in) .+)$`)

// heldAdverb is how much a tool in use is used, said after it: "using
// helix full time", "on vscode exclusively".
var heldAdverb = lazyRegexp(`(\bbeen (?:using|on|running|daily driving|driving|deploying (?:with|to|on)|hosting (?:on|with)) [a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) (?:full[- ]time|exclusively|every day|daily|day[- ]to[- ]day|at work|for everything|pretty much exclusively|almost exclusively)\b`)

// perfectProgressive is a habit held up to now: "we have been running
// postgres since march", "i have been deploying with fly.io".
var perfectProgressive = lazyRegexp(`^(i|we) have been (running|deploying|hosting|shipping|building|testing|writing|coding|developing|programming) (.+)$`)

// baseOf is the plain form of perfectProgressive's verbs.
var baseOf = map[string]string{"running": "run", "deploying": "deploy", "hosting": "host", "shipping": "ship", "building": "build",
	"testing": "test", "writing": "write", "coding": "code", "developing": "develop", "programming": "program"}

// starredWord is a value with the chat mark of a fix after it, opening
// an utterance: "Mirella* two Ls sorry", "vercel* not netlify".
var starredWord = lazyRegexp(`^([\p{L}][\p{L}0-9.+#-]*(?: [\p{L}][\p{L}0-9.+#-]*)?)\*(?:$|[\s,.!]+(.*)$)`)

// starRemark is what may follow a starred value: a remark on the slip
// ("two Ls sorry", "autocorrect", "fat fingers") or the value it fixes
// ("not netlify"). Anything else ("Postgres* is what we use") is a
// footnote's star, not a fix.
var starRemark = lazyRegexp(`^(?:sorry|soz|sry|typo|autocorrect|autocorrected|auto-correct|oops|whoops|my bad|lol|haha|ugh|fat fingers?|with (?:a|an|two|double|one) |(?:two|double|one|2|three) [a-z]{1,2}s?\b|not |instead of |spelling|spelled|spelt|misspelled|i mean|damn|doh|typing|on my phone|phone)`)

// starredValue reads a fix written "Value*": the value, with the one it
// replaces when the remark names it.
func starredValue(span string) (string, bool) {
	m := starredWord().FindStringSubmatch(span)
	if m == nil {
		return "", false
	}
	rest := lowerNormalize(m[2])
	if rest != "" && !starRemark().MatchString(rest) {
		return "", false
	}
	v := lowerNormalize(m[1])
	if alt, ok := strings.CutPrefix(rest, "not "); ok {
		alt, _, _ = strings.Cut(alt, ",")
		v += ", not " + alt
	}
	return v, true
}

// categoryIs is a noun of a kind of tool with "'s" for "is", at the start
// of a clause: "linting's handled by ruff", "ci's github actions fwiw".
var categoryIs = lazyRegexp(`(?:^|, )(?:the |our )?[a-z][a-z0-9/-]*(?: [a-z][a-z0-9/-]*)?'s [a-z0-9.+#-]+(?: [a-z0-9.+#-]+){0,2}`)

// categoryIsVerb reads the "'s" of a categoryIs match as "is" when what
// follows is a participle of how the kind's work is done or a tool: a
// possessive is followed by what is possessed ("ci's config is broken").
func categoryIsVerb(m string) string {
	lead, rest, _ := strings.Cut(m, "'s ")
	noun := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(lead, ", "), "the "), "our ")
	if _, ok := stackNouns()[noun]; !ok {
		return m
	}
	ws := strings.Fields(rest)
	if stackParticiple().MatchString(ws[0]) {
		return lead + " is " + rest
	}
	for n := len(ws); n >= 1; n-- {
		if _, ok := lookupTool(strings.Join(ws[:n], " ")); ok {
			return lead + " is " + rest
		}
	}
	return m
}

// stackParticiple is one of stackVerbs, the participles that say how a
// kind of work is done.
var stackParticiple = lazyRegexp(`^` + stackVerbs + `$`)

var brackets = strings.NewReplacer("(", ", ", ")", " ", "[", " ", "]", " ")

var slang = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"dont": "do not", "doesnt": "does not", "didnt": "did not", "cant": "cannot",
		"isnt": "is not", "arent": "are not", "wasnt": "was not", "shouldnt": "should not",
		"wouldnt": "would not", "couldnt": "could not", "im": "i am", "ive": "i have",
		"pls": "please", "plz": "please", "gonna": "going to", "wanna": "want to",
		"gotta": "have to", "thx": "thanks", "u": "you", "ur": "your", "idk": "i do not know",
		"imo": "", "tbh": "", "imho": "", "mi": "my", "remmber": "remember", "rember": "remember",
		"remeber": "remember", "rememeber": "remember", "alwasy": "always", "allways": "always", "nevr": "never",
	}
})

// lowerNormalize lowercases s, expands contractions and chat spellings,
// turns parentheses into commas and collapses white space.
func lowerNormalize(s string) string {
	s = contractions.Replace(strings.ToLower(s))
	if strings.Contains(s, "'s ") {
		s = slotIs().ReplaceAllString(s, "$1 is $2") // "port's 8001", "my manager's Tomas"
	}
	if strings.Contains(s, "'s ") {
		s = nameIs().ReplaceAllString(s, "$1 is $2") // "Sara's my manager now"
	}
	if strings.Contains(s, "'s ") {
		s = categoryIs().ReplaceAllStringFunc(s, categoryIsVerb) // "linting's handled by ruff", "ci's github actions"
	}
	if strings.HasPrefix(s, "i m ") || strings.Contains(s, " i m ") {
		s = iM().ReplaceAllString(s, "i am ") // "i m working for Siemens"
	}
	s = brackets.Replace(s)
	words := strings.Fields(s)
	out := words[:0]
	for _, w := range words {
		core := strings.TrimRight(w, ",.!:;")
		if r, ok := slang()[core]; ok {
			if r == "" {
				continue
			}
			w = r + w[len(core):]
		}
		out = append(out, w)
	}
	s = strings.Join(out, " ")
	s = strings.ReplaceAll(s, " ,", ",")
	return strings.Trim(s, " .!;:,-")
}

// sep is what may follow a stripped prefix: punctuation, or a space.
const sep = `(?:\s*[,:;!.-]+\s*|\s+)`

var (
	correctionPrefix = lazyRegexp(`^(?:(?:small |quick |tiny |one |a |minor )?(?:fix|correction|amendment|update) (?:to|on|for|re|about) (?:what i (?:said|wrote|told you|mentioned|gave you)|my (?:last|earlier|previous) (?:message|msg|note|answer)|(?:the|my) (?:info|details) (?:above|earlier|before))(?: (?:before|earlier|above|yesterday))?|actually|nvm|nevermind|never mind|sorry|sry|soz|srry|oops|whoops|correction (?:to|on) what i (?:said|wrote|told you)(?: (?:before|earlier|above))?|correction|fix:|no wait|oh wait|wait|hold on|hang on|hold up|my bad|my mistake|scratch that|update\s*[:!-]|nope|nah|no sorry|no actually|(?:ah|oh|uh|um|ugh|argh|hmm|meh|doh|ahh|ohh|er|lol|haha|heh|lmao|omg|whoa|ha) no|wrong (?:name|word|one|value|tool|db|database|city|place|port|number|version|branch|company|editor|language|framework|manager|team|timezone|tz|repo|project)|i misspoke|misspoke|mistyped|never mind|nvm|i was wrong|let me correct (?:that|myself)|let me fix (?:that|what i said|my mistake)|that is wrong|that was wrong|that is not right|that is not correct|not quite|wrong|to fix what i said|small fix|eh|hm+ no|to correct myself|to correct that|i stand corrected|err|erm|typo (?:above|earlier|before|there)|typo|edit|autocorrect|small correction|quick correction|i mistyped|i misspelled (?:that|it))` + sep + `|^no,? (?:dude|man|mate|bro|buddy)` + sep + `|^make that\s+|^no(?:\s+no)*\s*[,:;!.-]+\s*|^no(?:\s+no)+\s+`)
	changePrefix     = lazyRegexp(`^(?:after the (?:reorg|migration|move|merger|acquisition|switch|rewrite|upgrade|cutover)|(?:as of|starting|starting from|beginning|effective|since|from) (?:today|now|immediately|yesterday|last (?:week|month|sprint|release)|this (?:week|morning|month|sprint|release|quarter|year)|(?:mon|tues|wednes|thurs|fri|satur|sun)day|the (?:new|latest) release|(?:january|february|march|april|may|june|july|august|september|october|november|december)|the (?:reorg|migration|move|merger|acquisition|switch|rewrite)|v\d+(?:\.\d+)*|\d+(?:\.\d+)+|version \d+(?:\.\d+)*)(?: on(?:wards)?)?)` + sep + `|^from (?:this|the next|next) (?:sprint|release|week|month) on` + sep)
	directivePrefix  = lazyRegexp(`^(?:note to self|note for later|note to you|please note|note|nb|fyi|for your information|just so you know|just fyi|(?:just )?(?:a )?(?:quick )?heads up|psa|for later|for future reference|for the future|for reference|for the record|reminder|important|pro tip|rule of thumb|golden rule|general rule|house rule|team rule|ground rule|rule)(?: that)?` + sep + `|^(?:be )?(?:careful|warning|caution|attention)\s*[:!-]+\s*|^(?:please )?(?:remember|keep in mind)(?:\s*[,:;!.-]+\s*|\s+that\s+)|^(?:please )?(?:remember|note|keep in mind|keep|know) this(?: (?:for later|for the future|going forward|from now on))?\s*[,:;!.-]+\s*`)
	// directiveBare is "remember" before a statement without a colon:
	// "remember we're a pnpm shop" (but "remember to …" is an instruction).
	directiveBare   = lazyRegexp(`^(?:please )?(?:remember|keep in mind) (?:we|i|our|my|the|this)\b`)
	meantPrefix     = lazyRegexp(`^(?:(?:i )?meant to say|(?:i )?meant to write|what i meant (?:was|is)|(?:i )?should have (?:said|written|typed)|what i should have said (?:was|is)|i meant|i mean(?: it is| its)?)(?: that)?` + sep)
	softHedgePrefix = lazyRegexp(`^(?:i think|i believe|i guess|i suppose|i reckon|i assume|i am (?:pretty|fairly|quite|almost|reasonably) (?:sure|certain)|pretty sure|fairly sure|if i remember correctly|if i recall correctly|iirc|afaik|as far as i know|i would say)(?: that)?` + sep)
	fillerPrefix    = lazyRegexp(`^(?:ok|okay|so|well|oh|hey|hi|hello|here|er|erm|err|ehm|uhm|these days|nowadays|currently|yeah|yes|yep|yup|right|alright|all right|also|and|but|plus|then|btw|by the way|fyi|for your information|just so you know|just fyi|heads up|note|nb|important|reminder|quick note|quick update|small update|update\s*[:!-]|quick context|some context|background|one more thing|again|anyway|anyways|fwiw|ps|tip|pro tip|rule|context|for context|for the record|to be clear|just to be clear|to clarify|for reference|basically|honestly|frankly|personally|hmm|um|uh|ugh|cool|great|thanks|thank you|good|nice|perfect|got it|understood|as i said|like i said|as i mentioned|as mentioned|as i told you|i told you|i already told you|i have told you|i said|i keep telling you|remember that|keep in mind that|keep in mind|note that|just remember that|i know that|i know|you know|fun fact|in general|generally|turns out|it turns out|as it turns out)(?: before| earlier| already)?` + sep + `|^remember\s*[,:]\s*`)
	standingPrefix  = lazyRegexp(`^(?:it is (?:important|crucial|essential|vital) (?:to|for) (?:me|us) that|it matters to (?:me|us) that|from now on|from here on in|in our team|on our team|in this team|on this team|in my team|on my team|it is (?:important|crucial|essential|vital|key) that|in our (?:repo|codebase|company|shop)|at our company|around here|going forward|moving forward|from here on out|from here on|from this point on|in the future|in future|for the future|henceforth|by default|as a rule|as a general rule|for all future (?:work|tasks|sessions|changes)|for this (?:repo|project|codebase)|in this (?:repo|project|codebase)|for all projects|across all projects|in all projects|everywhere|whatever (?:you|we) do|no matter what|in any case|at all times|in all cases)` + sep)
	// modestPrefix hedges the speaker, not what they ask: "maybe it's
	// just me but …", "call me old-fashioned, but …", "not sure if it
	// matters, but …", "small thing, but …".
	modestPrefix = lazyRegexp(`^(?:(?:maybe|perhaps|probably) (?:it is|that is|this is) just me|(?:it|this) (?:may|might) (?:just )?be me|call me old[- ]fashioned|not sure (?:if|whether) (?:it|this) matters|i know (?:it is|this is|i am being) (?:picky|pedantic|nitpicky)|(?:a |one )?(?:small|minor|tiny|little) thing|(?:a )?(?:small |minor )?nit(?:pick)?|pet peeve(?: of mine)?|just a preference)\s*,?\s*(?:but\s+|[:,-]\s*)`)
	// strictAbout: "we're strict about type hints", "I'm big on tests".
	strictAbout = lazyRegexp(`^(?:we|i) (?:are|am) (?:very |really |quite |pretty |super )?(?:strict|picky|serious|particular|fussy|big|religious|pedantic) (?:about|on) ((?:[a-z0-9_-]+ ){0,2}[a-z0-9_-]+)(?: here| in this (?:repo|codebase|team))?$`)
	// decidedThat: "the team decided we only use UTC", "we agreed that
	// every PR gets a review": what was decided holds from then on.
	decidedThat = lazyRegexp(`^(?:the team|our team|we|we all|the tech leads|the leads|everyone) (?:have |has )?(?:decided|agreed|settled on the rule)(?: on it| on this)?(?: that)? ((?:we|all|every|each|no|our)\b.+)$`)
	// betterIfYou: "it's better if you keep functions short", "it would
	// be great if you ran the linter": a wish, said as what is better.
	betterIfYou = lazyRegexp(`^(?:i (?:would )?(?:prefer|like|love|appreciate|want) it (?:if|when) you |it (?:is|would be|will be) (?:much |a lot |way |so much |generally |usually )?(?:better|best|nicer|cleaner|preferable|great|ideal|good|helpful|easier(?: for me)?) (?:if|when) you )`)
	// nominalChange: "we finished the migration to Render", "completed
	// the move from Heroku to Fly", "the switch to pnpm is done".
	nominalChange = lazyRegexp(`^(?:we |i )?(?:have |just |finally )*(?:finished|completed|wrapped up|did|are done with|am done with|pulled off|landed|shipped) (?:the |our |my )?(?:migration|move|switch|cutover|cut-over|transition|port|upgrade)(?: (?:of|for) (?:the |our )?[a-z]+(?: [a-z]+)?)?(?: from ([a-z0-9.+# -]+?))? (?:to|onto) (.+)$`)
	// frontedInstead: "rather than mocking the db, spin up …", "instead of
	// npm, use pnpm".
	frontedInstead = lazyRegexp(`^(?:rather than|instead of) ([a-z0-9_.@/ -]+?)\s*,\s*(.+)$`)
	// boundRule: "limit lines to 100 chars", "cap functions at 50 lines",
	// "keep PRs under 400 lines".
	boundRule = lazyRegexp(`^(?:limit|cap|keep|restrict) (?:all |our |your )?(?:(?:[a-z-]+ ){0,2}[a-z-]+s|line length|line width) (?:to|at|under|below|within|at most|no longer than|shorter than) (?:\d+|one|two|three|four|five|ten)\b`)
	// whyKeep: "why do you keep adding comments", "why are you always
	// using var".
	whyKeep = lazyRegexp(`^why (?:do|did) you (?:keep|always keep|constantly keep) ([a-z]+ing\b.*)$|^why are you (?:always|constantly|still) ([a-z]+ing\b.*)$`)
	// scopeThem: "for errors: wrap them with …", "for tests, name them
	// after the function".
	scopeThem = lazyRegexp(`^for (?:all )?(?:new )?([a-z]+s)\s*[:,]\s*([a-z-]+) (?:them|these) (.+)$`)
	// frontSoft: a softener before an instruction ("where possible, …",
	// "ideally, …").
	frontSoft = lazyRegexp(`^(?:where(?:ver)? possible|whenever possible|when possible|if possible|as much as possible|as far as possible|if you can|where you can|whenever you can|ideally|preferably|by and large)\s*,?\s+`)
	// houseNorm: a custom of the house said as a noun or an adjective of
	// custom before the act: "it's the norm here to …", "the convention is
	// to …", "it's customary to …". Adjectives that can say how things
	// happen ("it's expected to fail") need the house's scope.
	houseNorm = lazyRegexp(`^(?:it is |that is )?(?:the |our |a )?(?:norm|convention|custom|rule|practice|standard practice|tradition|done thing|house rule|team rule|unwritten rule|etiquette)(?: here| around here| in this (?:repo|repository|project|codebase|team|company|shop)| on this team| for us| on our team)? (?:is )?to |^it is (?:customary|standard practice|good form|good etiquette)(?: here| around here| in this (?:repo|repository|project|codebase|team)| on this team| for us)? to |^it is (?:expected|standard|normal|usual)(?: here| around here| in this (?:repo|repository|project|codebase|team)| on this team| for us) to `)
	// tryTo: "try to keep functions pure", "aim to write small commits".
	tryTo = lazyRegexp(`^(?:please )?(?:try|aim|strive|do your best) to (?:always )?(.+)$`)
	// hardRuleTail: "…, that's a hard rule", "…, non-negotiable".
	hardRuleTail = lazyRegexp(`\s*,?\s*(?:btw\s*,?\s*)?(?:(?:that|this|it) is (?:a )?(?:hard |strict |firm |house |team )?(?:rule|must|requirement|non-negotiable|non negotiable)(?: (?:for us|here))?|non-negotiable|non negotiable|no exceptions)$`)
	politePrefix = lazyRegexp(`^(?:please|kindly)` + sep)
	toImperative = lazyRegexp(`^to\s+(always|never|not|use|avoid|prefer|run|keep|stop)\b`)

	standingAnywhere = lazyRegexp(`\b(?:from now on|going forward|moving forward|in the future|in future|by default|from here on)\b`)
	// everyTime marks a habit inside or at the end of an instruction: "run
	// go test with -race, always", "go test -race, every time", "run clippy
	// before every push".
	everyTime = lazyRegexp(`(?:,\s*|\s+)(?:always|every single time|every time|each time|all the time|without exception|no exceptions)\s*(?:,|$)|\s+(?:before|after) (?:every|each) [a-z-]+(?: [a-z-]+)?$|\s+(?:for|on|in|to) (?:every|each|all|all new|any new) [a-z-]+(?: [a-z-]+){0,2}$`)
	// habitualProgressive: "we are always writing", "I'm constantly
	// forgetting".
	habitualProgressive = lazyRegexp(`^(we|i|you) (?:are|am) (always|never|usually|normally|generally) ([a-z]+ing)\b`)
	// eachTime: an instruction over every item of a kind, "with each
	// change", "for every new endpoint", "after each deploy".
	// classScope: a kind of code a rule holds for, fronted: "in Go code,",
	// "for python,", "in yaml files,", "in tests,".
	classScope = lazyRegexp(`^(?:in|for|inside|within|across) (?:all |any |our |new )?((?:[a-z0-9.+#-]+ )?(?:code|files|projects|repos|tests|scripts|modules|components|services|docs|commits|branches|migrations|handlers|templates|notebooks)|python|go|golang|js|javascript|typescript|ts|rust|java|kotlin|swift|ruby|php|sql|yaml|css|scss|html|bash|shell|terraform|c\+\+|c#)\s*,\s*(.+)$`)
	// habitVerb: verbs whose meaning is a habit, "stick to", "default
	// to", "only use".
	habitVerb  = lazyRegexp(`^(?:stick (?:to|with)|default to|adhere to|keep to|standardi[sz]e on|(?:follow|match|respect|conform to|keep to|honou?r|mirror) (?:the |our |existing |the existing )*(?:[a-z0-9-]+ )?(?:style|style guide|code style|conventions?|patterns?|guidelines?|standards?|pep ?\d+|naming)\b|(?:keep|maintain|preserve) (?:backwards?|backward-|backwards-)? ?compat(?:ibility)?\b|only (?:use|write|run|call|import|deploy|install|push|merge))\b`)
	eachTime   = lazyRegexp(`\s(?:with|for|after|before|on) (?:every|each) [a-z]`)
	trailHabit = lazyRegexp(`(?:,\s*|\s+)(?:always|every single time|every time|each time|all the time|without exception|no exceptions)\s*(?:,|$)`)
	neverEver  = lazyRegexp(`^never\s*,\s*ever\b`)
	pastEvent  = lazyRegexp(`^(?:after|since|following|with) (?:the|our|my|a) [a-z-]+(?: [a-z-]+)?,?\s+((?:my|our|we|i)\b.*)$`)
	endedUp    = lazyRegexp(`\b(?:ended up|went ahead and|finally|decided to) (?:switching|moving|migrating|going|switch|move|migrate|go)\b`)
	nowOn      = lazyRegexp(`\b(is|are|am) (now|currently|still|already) (on|using|in|at|based|living|located|working|running|deploying|hosted|deployed|with)\b`)
	willModal  = lazyRegexp(`^(we|i) (?:will|are going to|am going to|shall) (use|deploy|run|host|ship|go with|stick with|build|write|test|lint|format)\b`)
	// askAlways: a question asking for a habit is an instruction.
	// "Can you always show me the whole file?" asks; "please" or a
	// standing marker makes it a request.
	askAlways = lazyRegexp(`^(?:can|could|would|will) you (?:please )?([a-z].+?) (?:from now on|going forward|moving forward|in (?:the )?future|from here on)()$|^(?:can|could|would|will) you (?:please |kindly )((?:always|never|from now on|going forward|in (?:the )?future|remember to|make sure to|stop|not|keep|avoid)\b.*)$|^(?:can|could|would|will) you ((?:from now on|going forward|in (?:the )?future|moving forward|make sure to always|make sure you always|remember to always)\b.*)$`)
	// changeSuffix is the date a change took effect, after it.
	changeSuffix = lazyRegexp(`\s*,?\s+(?:as of|effective|starting|since) (?:today|yesterday|this (?:week|sprint|month|quarter|release|morning)|last (?:week|sprint|month|quarter|release)|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$`)
	// askPolitely is a request put as a question: "could you please …".
	askPolitely = lazyRegexp(`^(?:can|could|would|will) you (?:please |kindly )?([a-z].+?)(?: please)?$`)
	// concessive ends an instruction where a clause that does not limit it
	// begins: "… even if I write in Portuguese".
	concessive = lazyRegexp(`\s*,?\s+(?:even if|even when|even though|whether or not|no matter (?:what|if|how))\s.*$`)
	// nobodyRe: "nobody pushes to main", "no one merges without review".
	everythingWith = lazyRegexp(`\b(format|lint|test|bundle|build|deploy|type-check|typecheck) (?:everything|all (?:of )?(?:our |the )?code|our code|the code|all files|all our files) (with|using|to|on|via)\b`)
	innerAside     = lazyRegexp(`\s*,\s*(?:under (?:any|no) circumstances?|no matter what|for any reason|ever|seriously|i mean it|please|really|again)\s*,\s*`)
	wherePossible  = lazyRegexp(`\s*,?\s+(?:where(?:ver)? possible|whenever possible|when possible|if possible|as much as possible)$`)
	iM             = lazyRegexp(`\bi m `)
	policyTo       = lazyRegexp(`^(?:(?:our|the) (?:policy|rule|convention|practice|standard|default) is to|it is (?:important|crucial|essential|key|vital|best|good practice) to|(?:the )?best practice(?: here)? is to) (always|never|not|use|write|run|keep|add|avoid)\b`)
	usingSince     = lazyRegexp(`\b(using|living|working|on|in) since (?:(?:many|a few|some|two|three|four|five|several|\d+) (?:years|months|weeks)|last (?:year|month|week)|\d{4}) `)
	calledName     = lazyRegexp(`^((?:my|our) (?:boss|manager|lead|team lead) is) (?:called|named) `)
	verbUsing      = lazyRegexp(`^((?:we|i) (?:lint|format|test|bundle|build|deploy|type-check|typecheck))(?: everything| our code| all code)? using\b`)
	doneWithRe     = lazyRegexp(`^(we|i) (?:are|am) (?:done|finished|through) with (.+)$`)
	nobodyRe       = lazyRegexp(`^(?:nobody|no one|no-one) ([a-z]+) (.+)$`)
	inlineActually = lazyRegexp(`\bactually,?\s+`)
	inlineProbably = lazyRegexp(`\bprobably\s+`)

	// politeRewrites turn polite forms into the plain form the matchers know,
	// before the filters see "would" and "should".
	politeRewrites = []struct {
		re  func() *regexp.Regexp
		out string
	}{
		{lazyRegexp(`^(i|we) would (?:much |really |definitely |strongly )?prefer\b`), "$1 prefer"},
		{lazyRegexp(`^(i|we) would (?:much )?rather\b`), "$1 rather"},
		{lazyRegexp(`^i would (?:like|love|want) (?:for )?you to\b`), "i want you to"},
		{lazyRegexp(`^i would (?:really )?(?:like|love) (all|every|each|my|our) `), "i want $1 "},
		{lazyRegexp(`^(?:we|you) should (always|never)\b`), "we $1"},
		{lazyRegexp(`^let us (always|never)\b`), "we $1"},
		{lazyRegexp(`^you will (always|never)\b`), "$1"},
		{lazyRegexp(`^you (?:should |must |can |may |will )?(always|never)\b`), "$1"},
	}
)

var (
	// correctionWhen: when the corrected value was said, after a
	// correction marker.
	// correctionWhy is why the mistake was made, after the corrected
	// value: "it's Postgres, I was thinking of my other job", "…, I mixed
	// up the two repos". It says nothing of the value, and its "thinking
	// of" is no hedge.
	correctionWhy = lazyRegexp(`\s*[,;:.-]+\s*(?:i|we)\s+(?:was|were|am|are)\s+(?:thinking|confusing|mixing|looking|remembering)\b.*$|\s*[,;:.-]+\s*(?:i|we)\s+(?:mixed|confused|misremembered|got)\b.*\b(?:up|wrong|mixed|confused|other|old)\b.*$|\s*[,;:.-]+\s*(?:i|we)\s+(?:spelled|spelt|misspelled|misspelt|wrote|typed|mistyped|misheard|heard|autocorrected)\s+(?:it|that|the name|them|her name|his name)\b.*$`)
	// trailingCorrection: a correction marker that ends the clause.
	trailingCorrection = lazyRegexp(`\s*,\s*(?:sorry(?: about that)?|my bad|my mistake|oops|typo(?: (?:in|on) my (?:earlier |last |previous )?(?:message|msg))?|i misspoke|i mistyped|autocorrect|damn autocorrect|i (?:mixed|got) (?:them|it|that|those) (?:up|mixed up|confused)(?: with [a-z ]+)?|wrong (?:repo|project|one))\s*$`)
	// wrongAbout: "the thing I told you about the port was wrong", "what
	// I said about my manager is outdated".
	wrongAbout = lazyRegexp(`^(?:the (?:thing|bit|part|info|stuff|one)|what|everything) (?:i|we) (?:told you|said|wrote|gave you|mentioned|typed|put) (?:earlier |before )?(?:about|on|regarding|for) (my|our|the) ([a-z][a-z ]{1,30}?) (?:was|is) (?:wrong|incorrect|off|not right|not correct|outdated|a typo|a mistake|old)$`)
	// evidential: "checked the config", "I double-checked": the speaker
	// looked again.
	evidential     = lazyRegexp(`^(?:i )?(?:just )?(?:checked|double-checked|double checked|looked it up|looked again|verified|rechecked)(?: (?:the|in the|with the|my|our) [a-z0-9._-]+(?: [a-z0-9._-]+)?)?(?: and)?$`)
	correctionWhen = lazyRegexp(`^(?:earlier|before|above|yesterday|the other day|last time|just now|a minute ago)(?:\s*[,:;.-]+\s*|\s+|$)`)
	// correctedAbout: a correction that names the slot it is about,
	// before or without the value.
	correctedAbout = lazyRegexp(`^((?:scratch|forget|ignore|disregard) (?:what i (?:told you|said|wrote|mentioned|gave you)|that|my last message|what i just said) )?(?:about|on|regarding|re|for) (my|our|the) ([a-z][a-z ]{1,30}?)(?: (?:yesterday|earlier|before|the other day|last time))?$`)
)

// amNotAt: "I'm not at Stripe anymore", "I'm no longer at Stripe".
var amNotAt = lazyRegexp(`^i am (?:not|no longer) at ([a-z0-9][a-z0-9&.'-]*(?: [a-z0-9][a-z0-9&.'-]*){0,2}?)(?: anymore| any more)?$`)

// writingFrom: "writing from Montreal", said in a greeting.
var writingFrom = lazyRegexp(`^(?:i am )?(?:writing|typing|messaging|chatting|texting|coding)(?: to you| this)? from ([a-z][a-z.' -]*[a-z])$`)

// spelledAs: "it's spelled Katarzyna", "it is spelt with a y".
var spelledAs = lazyRegexp(`^it is (?:actually )?spel(?:led|t) [a-z]`)

// gaveUpOn: "gave up on Webpack", "we got rid of Redux".
var gaveUpOn = lazyRegexp(`^(?:(?:we|i) (?:have )?)?(?:finally |just |recently )?(?:gave up on|given up on|got rid of|gotten rid of|moved away from|walked away from|abandoned|ripped out|tore out|yanked out|ripped|killed) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)$`)

// everythingIs: "everything is React now", "it's all Go these days".
var everythingIs = lazyRegexp(`^(?:everything|it all|all of it|the whole (?:thing|app|stack|codebase)) is (?:now |all )?(?:in |on |written in |built (?:on|with) )?([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)??)(?: now| these days| nowadays)?(?: with (?:a |an |the )?[a-z0-9.-]+(?: [a-z0-9.-]+)?)?$`)

// toolIsIn: "Render is in", after "Heroku is out".
var toolIsIn = lazyRegexp(`^([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) is (?:in|in now|now in)$`)

// amAt: "I'm at Fastly (now) (, not Akamai)".
var amAt = lazyRegexp(`^i am (?:now |currently |still )?at ([a-z0-9][a-z0-9&.'-]*(?: [a-z0-9][a-z0-9&.'-]*){0,2}?)(?: now| these days)?((?:,? (?:not|instead of) [a-z0-9][a-z0-9&.' -]*)?)$`)

// employerLike says whether a name after "I'm at" is a company rather
// than a place: a word the built-in vectors do not know (most companies'
// names are rarer than any city's) or one nearer "company" than "city"
// (Google, Netflix; not Berlin, Heathrow). Common words ("home", "work",
// "a conference") are lower case and never get here.
func employerLike(name string) bool {
	if determiner().MatchString(firstWord(name)) || firstWord(name) == "a" || firstWord(name) == "an" {
		return false
	}
	v := wordVector(name)
	if v == nil {
		return true
	}
	co, city := companyCityVectors()
	return co != nil && embed.Cosine(v, co) >= embed.Cosine(v, city)+0.1
}

var companyCityVectors = sync.OnceValues(func() ([]float32, []float32) {
	return wordVector("company"), wordVector("city")
})

// backIn: "we're back in Melbourne (after two years in Perth)".
var backIn = lazyRegexp(`^(?:i am|we are) (?:now |finally |just )?(?:back (?:in|home in|living in)|living back in) ([a-z][a-z.' -]*?)(?: after (?:[a-z0-9 ]+? )?(?:in|at) ([a-z][a-z.' -]+)|` + changeWhen + `)$`)

// changeWhen is an optional time a change happened at, at the end of a
// clause: it says nothing about the new value.
const changeWhen = `(?: (?:last|this) (?:week|month|year|sprint|quarter|summer|spring|autumn|fall|winter)| yesterday| today| recently| a while ago| in (?:january|february|march|april|may|june|july|august|september|october|november|december))?`

// degreeValue is a degree before a value: "infra is all pulumi", "the
// backend is entirely Go".
var degreeValue = lazyRegexp(`^((?:the |our |my )?(?:[a-z0-9-]+ ){0,2}[a-z0-9-]+) (is|are) (?:all|entirely|fully|100%|completely|exclusively) ([a-z0-9])`)

// outOfInto is a thing taken out of one place into another: "moved
// secrets out of .env files into 1Password" is moved from one to the
// other.
var outOfInto = lazyRegexp(`(?i)\b(moved|migrated|took|pulled|got) ((?:[\w.-]+ ){1,3})out of (.+?) (?:into|to|onto) `)

// shapeNorms put a clause into the plain shape the matchers read, where
// words that change nothing about the statement stand between its parts:
// an adverb of degree or stance after the copula ("I'm officially a staff
// engineer", "we're fully on GCP"), a time adverb between the subject and
// its verb ("my manager these days is Aisha"), a subject left out before
// "no longer" ("no longer on CircleCI"), a start at an employer ("started
// at Datadog"), a deictic subject for the repository ("this one is on
// node 20").
var shapeNorms = []struct {
	re  func() *regexp.Regexp
	out string
}{
	// "lint here is biome", "formatting is dprint": the activity names
	// its tool's slot
	{lazyRegexp(`^(?:the |our )?(?:lint|linting)(?: here| in this (?:repo|project))? (?:is|=) ([a-z0-9][\w.+#-]*(?: [\w.+#-]+)?)$`), "our linter is $1"},
	{lazyRegexp(`^(?:the |our )?(?:formatting)(?: here| in this (?:repo|project))? (?:is|=) ([a-z0-9][\w.+#-]*(?: [\w.+#-]+)?)$`), "our formatter is $1"},
	// "we write the backend in rust, used to be python": the old value
	// said after a comma in the past is what the new one replaces
	{lazyRegexp(`,\s*(?:it |that |this )?(?:used to be|was formerly|was previously|previously|formerly|before that it was|before it was) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)(?: before| earlier| until recently)?$`), " instead of $1"},
	// "the app listens on 3001 now instead of 3000": the "now" of a
	// change stands between the value and the one it replaces
	{lazyRegexp(`\s+(?:now|these days|nowadays)(\s*,?\s+(?:instead of|rather than|not) )`), "$1"},
	// "we live in Utrecht": a household lives where the person does
	{lazyRegexp(`^(?:we|my (?:family|wife|husband|partner|girlfriend|boyfriend|kids) and i) (?:all )?(live|are living)\b`), "i $1"},
	// "I'm on the platform team as an SRE", "I joined the infra team as a
	// staff engineer": the role is what "as" names
	{lazyRegexp(`^i (?:am|work) (?:on|in|with|for) (?:the |a |an )?(?:[a-z0-9-]+ ){0,3}(?:team|squad|group|org) as (an?|the) ([a-z][a-z -]*[a-z])$`), "i am $1 $2"},
	// "the project targets python 3.12": what it targets is what it is on
	{lazyRegexp(`^(?:the |this |our )?(?:project|repo|repository|app|service|codebase|code|library|lib|package|module) (?:now )?(?:targets|is targeting|requires|needs)\b`), "we are on"},
	// "first week at Pomelo Health": a new job
	{lazyRegexp(`^(?:(?:it is |its )?my )?(?:first|1st|second|2nd) (?:day|week|month) (?:at|with) `), "i joined "},
	// "now that I've relocated to Vancouver …", "now that we're on pnpm
	// …": what "now that" presupposes is stated
	{lazyRegexp(`^now that (i|we) (?:have )?(?:just |finally )?(relocated|moved|switched|migrated|joined|upgraded|are on|am on|use|live) `), "$1 $2 "},
	// "you're not allowed to push to main", "you must not", "you may not",
	// "you can't": a prohibition said of the assistant
	{lazyRegexp(`^you (?:are not allowed to|are not supposed to|may not|must not|cannot|can not|should not|are never to|are not to) `), "never "},
	// "you don't need to write tests for trivial getters": no need
	{lazyRegexp(`^you (?:do not|never) (?:need|have) to `), "no need to "},
	// "try to keep functions pure", "try not to use globals": a softened
	// rule is still the rule
	{lazyRegexp(`^(?:please )?(?:try|aim|strive|do your best) not to `), "never "},
	// "don't bother with docstrings": not to bother with a thing is not
	// to use it
	{lazyRegexp(`^(?:do not|never) bother with `), "never use "},
	// "don't bother writing docs for internal helpers": not to do it
	{lazyRegexp(`^(?:do not|never) bother (?:with |to )?([a-z]+ing|[a-z]+) `), "never $1 "},
	// "they go out from main with a tag" (after deploys were named): the
	// things that go out from a branch are the deploys
	{lazyRegexp(`^(?:they|these|those) (?:now )?(go out|ship|are cut|get cut|happen|are deployed|deploy) (?:now )?(from|off) `), "deploys $1 $2 "},
	// "I moved local postgres to port 5433": moving a thing to a port
	// sets the port
	{lazyRegexp(`^(?:i |we )?(?:just )?(?:moved|changed|switched|bumped|put|set) (?:the |our |my )?(?:[a-z0-9.-]+ ){0,3}?(?:to|onto|on) port (\d{2,5})\b.*$`), "the port is $1"},
	// "We rewrote everything in Go": a rewrite in a language is a change to it
	{lazyRegexp(`^(?:we |i )?(?:just |finally )?(?:rewrote|have rewritten|ported|reimplemented|rebuilt) (?:everything|it|it all|all of it|the whole thing|the (?:[a-z]+ ){0,2}[a-z]+) (?:in|to|into) `), "we switched to "},
	// "it's Datadog where I work", "Porto is where I live": the relative
	// clause names the slot
	{lazyRegexp(`^(?:it is |its )?([a-z0-9.&' -]+?) (?:is )?where (?:i|we) (?:work|am working)(?: now)?$`), "i work at $1"},
	{lazyRegexp(`^(?:it is |its )?([a-z0-9.' -]+?) (?:is )?where (?:i|we) (?:live|am living|am based)(?: now)?$`), "i live in $1"},
	// "started using Helix instead of vim": to start using is to switch
	{lazyRegexp(`^((?:i|we) )?(?:have )?(?:just |recently |finally )?(?:started|began) using `), "${1}switched to "},
	// "we are pinned to Python 3.10", "this one is stuck on Go 1.19": held
	// on a version is being on it
	{lazyRegexp(`\b(am|is|are) (?:still )?(?:pinned|stuck|locked|frozen|held back|fixed) (?:to|on|at) `), "$1 on "},
	// "packed up and moved to Glasgow": of two verbs of one subject, the
	// change is the second
	{lazyRegexp(`^((?:i |we )?(?:just |finally |recently )?)(?:[a-z]+ed|sold|left|quit|took)(?: up| out| off| everything| the house)? and ((?:moved|relocated|switched|migrated|upgraded|changed) )`), "$1$2"},
	{lazyRegexp(`\b(am|is|are|was|were) (?:(?:now|currently|officially|fully|entirely|completely|totally|basically|finally|mostly|100%|properly|permanently) )+`), "$1 "},
	{lazyRegexp(`^((?:my|our|the) [a-z][a-z -]{0,25}?) (?:these days|nowadays|now|currently|at the moment|right now|for now) (is|are)\b`), "$1 $2"},
	{lazyRegexp(`^no longer (on|using|with|at|in|based in|living in|working at|working for)\b`), "we are no longer $1"},
	{lazyRegexp(`^(?:i )?(?:just |recently |officially )?started (?:at|with|working at|working for) `), "i joined "},
	{lazyRegexp(`^(?:this|the) (?:one|repo|repository|project|codebase|service|app) (?:is|runs) on `), "we are on "},
	{lazyRegexp(`^([a-z][\w.+#-]*) (?:just )?(?:got|was|has been|have been) (?:bumped|upgraded|updated|moved) (?:up )?to `), "we upgraded $1 to "},
	{lazyRegexp(`^i (?:just |finally )?(?:left|quit) [a-z0-9.&' -]+? for ([a-z0-9.&' -]+)$`), "i joined $1"},
	{lazyRegexp(`^i (?:do not|really do not|never) want you to (?:ever )?`), "never "},
	{lazyRegexp(`^(?:we|i) (?:went|ended up going|decided to go|are going|have gone) with ([a-z0-9.+# -]+?)(?: (?:after|when|because|since|as) .*)?$`), "we use $1"},
	{lazyRegexp(`^([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) all the way$`), "we use $1"},
	{lazyRegexp(`^(?:my |our |the )?(manager|boss|lead|team lead|tech lead) (?:changed|switched|moved) (?:over )?to ([a-z][a-z'-]+(?: [a-z][a-z'-]+)?)`), "my $1 is $2"},
	{lazyRegexp(`^(?:i|we) (?:just )?(?:got|have|have got) (?:a )?new (manager|boss|lead|team lead|tech lead)$`), "my $1 changed"},
	{lazyRegexp(`^([a-z][a-z'-]+) (?:took over|has taken over|is taking over) from ([a-z][a-z'-]+) as (my|our) `), "$1 replaced $2 as $3 "},
	// "Priya took over as my manager from Tom last week": the same, the
	// one replaced said after the role; when it happened says nothing more
	{lazyRegexp(`^([a-z][a-z'-]+) (?:took over|has taken over|stepped in|stepped up) as (my|our) (?:new )?([a-z]+(?: [a-z]+)?) from ([a-z][a-z'-]+)` + changeWhen + `$`), "$1 replaced $4 as $2 $3"},
	// "I moved to Melbourne from Perth", "we switched to pnpm from yarn
	// last year": the value left is what "from" names, not part of the new
	// one
	{lazyRegexp(`^((?:i|we) (?:have )?(?:just |recently |finally )?(?:moved|relocated|switched|migrated|changed|went|transferred)(?: over| back)?) to ([a-z0-9.+#' -]+?) from ([a-z0-9.+#' -]+?)` + changeWhen + `$`), "$1 from $3 to $2"},
	{lazyRegexp(`^(?:i have been|been|lately i have been|i am) using (.+?) (?:lately|recently|these days|for a while now|for a while)$`), "i use $1"},
	// "error messages in this project are lowercase": the house's scope
	// said inside the subject is said at the end, where the conventions
	// read it; "the" names no house and is dropped
	{lazyRegexp(`^([a-z][\w.-]*(?: [a-z][\w.-]*)?) ((?:in|for|across|throughout) (?:this|our) (?:repo|repository|codebase|project|monorepo)) ((?:should|must|need|needs|go|goes|live|lives|sit|sits|belong|belongs|stay|stays|are|is|follow|follows)\b.*)$`), "$1 $3 $2"},
	{lazyRegexp(`^([a-z][\w.-]*(?: [a-z][\w.-]*)?) (?:in|for|across|throughout) the (?:repo|repository|codebase|project|monorepo) ((?:should|must|need|needs|go|goes|live|lives|sit|sits|belong|belongs|stay|stays|are|is|follow|follows)\b)`), "$1 $2"},
	// a scope said after the subject ("commit messages here follow
	// conventional commits", "every PR around here gets two reviews") is
	// said at the end, where the conventions read it
	{lazyRegexp(`^((?:all |every |each |our )?(?:[a-z0-9_.-]+ ){0,2}[a-z0-9_.-]+?) (here|around here|in this (?:team|company|shop|org)|on this team) ((?:should|must|need|needs|have to|has to|are|is|get|gets|go|goes|live|lives|follow|follows|use|start|end|include|never|always) .+)$`), "$1 $3 $2"},
	// "lint here is biome", "the db in this repo is postgres": a bare slot
	// noun with a scope is the slot
	{lazyRegexp(`^((?:the |our )?(?:lint|linter|linting|formatter|formatting|ci|db|database|runtime|test runner|tests|package manager|bundler|framework|deploys?|hosting)) (?:here|in this (?:repo|project|codebase)|for this (?:repo|project)) (is|are|=) `), "$1 $2 "},
	{lazyRegexp(`^i (?:moved|switched|transitioned|changed|stepped|got promoted) (?:in)?to (?:a |an |the )?([a-z][a-z -]{1,30}?) (?:role|position|job|track)(?: (?:last|this) \w+| recently| today| yesterday)?(?:,.*)?$`), "i am a $1"},
	// "I've been promoted to staff engineer", "just got promoted to
	// senior": the role promoted to is the role held
	{lazyRegexp(`^(?:i )?(?:have |had )?(?:just |finally |recently )?(?:been|got|was|am|get) promoted to (?:a |an |the )?([a-z][a-z -]{1,30}?)` + changeWhen + `$`), "i am a $1"},
	// "the team switched to trunk-based development": the speaker's team
	// or company doing something is "we"
	{lazyRegexp(`^(?:the|our|my) (?:whole |entire )?(?:team|company|org|squad|department) (?:has |have |finally |just )*(switched|moved|migrated|went|changed|standardi[sz]ed|adopted|dropped|ditched|replaced)\b`), "we $1"},
	// "under no circumstances commit .env files": a negative adverbial
	// fronted before the imperative forbids it
	{lazyRegexp(`^(?:under no circumstances?|in no case|at no point|at no time|on no account|by no means|not ever)\s*,?\s+(?:should you |do you |must you |are you to |you should |you must )?`), "never "},
	// "I work on the data team at Zalando": the team is part of the
	// employer
	{lazyRegexp(`^i (?:work|am) (?:on|in|with) (?:the |a )?(?:[a-z0-9-]+ ){0,3}(?:team|squad|group|org) (?:at|for) `), "i work at "},
	// "it's Kim who's my manager": a cleft puts the value first
	{lazyRegexp(`^it is ([a-z][a-z'-]+(?: [a-z][a-z'-]+)?) (?:who is|who s|that is|who are) (my|our) ([a-z]+(?: [a-z]+)?)$`), "$2 $3 is $1"},
	// "the repo moved to GitLab": the project's home moving is the
	// project moving
	{lazyRegexp(`^(?:the|our|this) (?:repo|repository|code|codebase|project|source) (?:has )?(?:just |finally )?(?:moved|migrated) (?:over )?to `), "we use "},
	// "I now go by Alex": the name one goes by is one's name
	{lazyRegexp(`^i (?:now |usually |mostly |actually |just )?go by ([a-z][a-z'-]+)$`), "my name is $1"},
	// "we've adopted pnpm": adopting a tool is switching to it
	{lazyRegexp(`^(?:we|i) (?:have )?(?:just |recently |finally |officially )?adopted `), "we switched to "},
	// "back to Vim after a year of VS Code": going back to a tool from
	// the one used in between
	{lazyRegexp(`^(?:(?:i am|we are) )?(?:going |went |switched |moved )?back (?:to|on) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) after (?:[a-z0-9 ]+ )?(?:of|with|on|using) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?)$`), "i switched from $2 to $1"},
	// "never forget to sign commits": not to forget is to always do;
	// "remember not to push to main": to remember not to is never to
	{lazyRegexp(`^(?:never|do not ever) forget to `), "always "},
	{lazyRegexp(`^(?:please )?(?:remember|make sure|be sure) (?:to )?not to `), "never "},
	// "we frown on global variables": disapproval of a practice is
	// avoiding it
	{lazyRegexp(`^(?:we|i) (?:really |strongly |generally |heavily )?frown (?:up)?on `), "we avoid "},
	// "I do all my editing in Kakoune": the activity names its tool's slot
	{lazyRegexp(`^i do (?:all |most |pretty much all |almost all )?(?:of )?my (?:editing|text editing|code editing) (?:in|with|on) (.+)$`), "my editor is $1"},
	// "vim user for 15 years and not switching": a tool's user, said
	// without "I am"
	{lazyRegexp(`^(?:a |an )?(?:long-?time |lifelong |life-long |die-?hard |happy |heavy |proud )?([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) user(?: for [a-z0-9 ]+| since [a-z0-9 ]+)?(?:,? and (?:not|never|still|no) .*)?$`), "i am a $1 user"},
	// "my new address is in Leeds": where the home is is where one lives
	{lazyRegexp(`^my (?:new )?(?:address|home|place|flat|apartment|house) is (?:now )?(?:in|near) `), "i live in "},
	// "our staging url changed to staging.acme.dev": a slot said to have
	// changed to a value now has it
	{lazyRegexp(`^((?:our|my|the) (?:[a-z0-9-]+ ){0,2}(?:url|port|branch|domain|host|hostname|endpoint|address|email|timezone|tz|title|role|team|name|bucket|region|namespace|cluster)) (?:has |was |just |recently )*(?:changed|switched|been changed|been renamed|renamed) to `), "$1 is "},
}

// bareMarker are clauses that only say the next one corrects: "no - …".
// selfJudgement is the speaker saying they said something wrong, at the
// start of a clause.
var selfJudgement = lazyRegexp(`^(?:i\s+(?:typed|wrote|said|got|put|spelled|spelt|had|remembered|misremembered|misspoke|mistyped|misspelled|messed|screwed|mixed|confused)(?:\s+(?:that|it|this|them|those|the\s+two|something))?(?:\s+(?:wrong|incorrectly|up|badly))?|(?:that\s+was\s+|that\s+is\s+)?(?:a\s+)?(?:mistake|error|slip)\s+on\s+my\s+(?:part|end)|my\s+error|i\s+was\s+wrong(?:\s+(?:earlier|before|above))?|that\s+was\s+(?:a\s+)?(?:typo|mistake|wrong)|i\s+should\s+(?:clarify|correct\s+(?:that|myself)))(?:\s*[:,;.-]+\s*|\s+-+\s*|$)`)

var bareMarker = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"no": true, "nope": true, "nah": true, "wait": true, "sorry": true, "oops": true,
		"no wait": true, "wait no": true, "actually": true, "correction": true, "my bad": true, "whoops": true,
		"no sorry": true, "sorry no": true, "oops sorry": true, "sorry typo": true, "typo": true, "autocorrect": true,
		"damn autocorrect": true, "stupid autocorrect": true, "wrong": true, "that is wrong": true, "not quite": true,
		"scratch that": true, "let me correct myself": true, "let me correct that": true, "i wrote it wrong": true,
		"i got it wrong": true, "i typed it wrong": true, "i misspelled it": true, "wrong one": true, "my mistake": true,
		"i got that wrong": true, "i confused it": true, "i confused them": true, "i mixed it up": true, "i mixed them up": true,
		"i mixed that up": true, "i confused the two": true, "misspoke": true, "i misspoke": true,
		"mistyped": true, "i mistyped": true, "nvm": true, "never mind": true}
})

// pastOf is the past tense of the change verbs "ended up …" takes.
var pastOf = sync.OnceValue(func() map[string]string {
	return map[string]string{"switching": "switched", "switch": "switched", "moving": "moved", "move": "moved",
		"migrating": "migrated", "migrate": "migrated", "going": "went", "go": "went"}
})

// prefixStarters are the first words of every prefix analyze strips; a
// clause opening with any other word has no prefix, and the prefix regexps
// are skipped.
var prefixStarters = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool)
	for w := range strings.FieldsSeq(`should maybe perhaps probably call minor tiny little pet misspoke mistyped nvm never actually sorry sry soz srry oops whoops correction no oh wait my scratch update eh hm hmm autocorrect ugh argh meh doh ahh ohh er fix lol golden general house ground haha heh lmao omg whoa ha that not wrong it turns
		i let to err erm what pretty fairly if iirc afaik as ok okay so well hey hi hello yeah yes yep
		yup right alright all also and but plus then btw by fyi for just heads note nb important
		reminder quick some background one again anyway anyways fwiw ps tip pro rule context
		basically honestly frankly personally hmm um uh cool great thanks thank good nice perfect
		got understood like remember keep you fun in generally from going moving henceforth across make
		everywhere please kindly starting beginning effective since typo small quick nb nope nah ah uh
		wrong here around at after following hold hang careful be warning caution attention with these nowadays currently whatever under er erm err ehm uhm meant`) {
		m[w] = true
	}
	return m
})

func firstWord(t string) string {
	w, _, _ := strings.Cut(t, " ")
	return strings.TrimRight(w, ",.:;!-")
}

// analyze prepares a raw clause for matching.
func analyze(rc rawClause) clause {
	c := clause{span: strings.TrimSpace(rc.text), question: rc.question}
	t := lowerNormalize(strings.TrimLeft(rc.text, "*"))
	if v, ok := starredValue(c.span); ok {
		c.correction, t = true, v // "Mirella* two Ls sorry": the chat way of fixing a word, starred after it
	}
	if m := whyKeep().FindStringSubmatch(t); m != nil {
		// "why do you keep adding try/except everywhere?": a complaint
		// about a habit asks to stop it
		t, c.question = "stop "+m[1]+m[2], false
	}
	if m := askAlways().FindStringSubmatch(t); m != nil {
		// "can you please always include a test", "could you from now on
		// write docstrings in Google style?": a request for a habit
		t, c.question = m[1]+m[2]+m[3]+m[4], false
	}
	if w := firstWord(t); w != "can" && w != "could" && w != "would" && w != "will" {
		// not put as a question
	} else if m := askPolitely().FindStringSubmatch(t); m != nil && artefactStandard(m[1]) {
		// "could you please use snake_case for the database columns": a
		// way of working over a standing artefact, asked politely, is a
		// rule, not a question
		t, c.question = m[1], false
	}
	if rest, ok := strings.CutPrefix(t, "no "); ok && (strings.HasPrefix(rest, "it is ") || strings.HasPrefix(rest, "that is ") || strings.HasPrefix(rest, "its ")) {
		// "no it's 1.22, not 1.20": the "no" of a repair, said without its
		// comma, as "no, it's 1.22" is
		c.correction, t = true, rest
	}
	for range 8 {
		if rest, ok := strings.CutPrefix(t, "no "); ok && c.correction && (strings.HasPrefix(rest, "it is ") || strings.HasPrefix(rest, "that is ") || strings.HasPrefix(rest, "its ")) {
			t = rest // "wait no it's Braga": the "no" of a repair after its opener
		}
		if !prefixStarters()[firstWord(t)] {
			break
		}
		before := t
		if loc := correctionPrefix().FindStringIndex(t); loc != nil && !strings.HasPrefix(t, "sorry if ") {
			// "sorry if I'm slow today" apologises; it corrects nothing
			c.correction, t = true, t[loc[1]:]
		}
		if loc := meantPrefix().FindStringIndex(t); loc != nil {
			c.correction, c.meant, t = true, true, t[loc[1]:]
		}
		if loc := softHedgePrefix().FindStringIndex(t); loc != nil {
			c.hedged, t = true, t[loc[1]:]
		}
		if loc := standingPrefix().FindStringIndex(t); loc != nil {
			c.standing, t = true, t[loc[1]:]
		}
		if loc := changePrefix().FindStringIndex(t); loc != nil {
			c.change, t = true, t[loc[1]:]
		}
		if loc := directivePrefix().FindStringIndex(t); loc != nil {
			c.directive, t = true, t[loc[1]:]
		} else if directiveBare().MatchString(t) {
			_, rest, _ := strings.Cut(strings.TrimPrefix(t, "please "), " ")
			if strings.HasPrefix(rest, "in mind ") {
				rest = strings.TrimPrefix(rest, "in mind ")
			}
			c.directive, t = true, rest
		}
		for _, re := range []*regexp.Regexp{fillerPrefix(), politePrefix(), modestPrefix()} {
			if loc := re.FindStringIndex(t); loc != nil {
				t = t[loc[1]:]
			}
		}
		t = toImperative().ReplaceAllString(t, "$1")
		if t == before {
			break
		}
	}
	if strings.Contains(t, " if ") || strings.Contains(t, " in case ") {
		t = offeredTail().ReplaceAllString(t, "") // "i'm on fedora 40 if that matters for the build errors"
		if loc := overflowTail().FindStringIndex(t); loc != nil && loc[0] > 0 && limitWord().MatchString(t[:loc[0]]) {
			t = t[:loc[0]] // "keep functions under 40 lines, if it is longer split it": what to do past the limit
		}
	}
	if m := policyIs().FindStringSubmatch(t); m != nil {
		c.standing, t = true, t[len(m[0])-len(m[1]):] // "our policy is no deploys on friday"
	}
	t = strings.Replace(t, "always, always ", "always ", 1)
	if rest, ok := strings.CutPrefix(t, "do not you "); ok {
		t = "never " + strings.TrimPrefix(rest, "ever ") // "don't you ever push to main"
	}
	if strings.HasPrefix(t, "instead of ") {
		if m := insteadFront().FindStringSubmatch(t); m != nil {
			t = "use " + m[2] + " instead of " + m[1] // "instead of print use logging"
		}
	}
	if loc := trailingCorrection().FindStringIndex(t); loc != nil && loc[0] > 0 {
		// "It's John btw, typo in my earlier message", "port's 8001, my
		// mistake": the correction said after its value
		c.correction, t = true, t[:loc[0]]
	}
	if c.correction {
		// "I misspoke earlier, …", "sorry, yesterday I said …": when the
		// mistake was made says nothing more
		t = correctionWhen().ReplaceAllString(t, "")
		t = correctionWhy().ReplaceAllString(t, "")
	}
	if m := wrongAbout().FindStringSubmatch(t); m != nil {
		// "the thing I told you about the port was wrong": the speaker
		// judges what they said of a slot; the value follows
		t = "correction on " + m[1] + " " + m[2]
		c.correction = true
		t = strings.TrimPrefix(t, "correction ")
	}
	if evidential().MatchString(t) && t != "" {
		// "nvm, checked the config, it's 9090": having looked again is
		// why the value that follows replaces the one said
		c.correction, t = true, ""
	}
	if m := correctedAbout().FindStringSubmatch(t); m != nil && (c.correction || m[1] != "") {
		// "scratch what I told you about my manager", "correction on
		// the staging db port": the slot the next clause's value is for
		owner := m[2]
		if owner == "the" {
			owner = "our"
		}
		slot := strings.Fields(m[3])
		if len(slot) > 2 {
			slot = slot[len(slot)-2:] // "the staging db port": its db port
		}
		c.correction = true
		t = owner + " " + strings.Join(slot, " ") + " changed"
	}
	if m := nominalChange().FindStringSubmatch(t); m != nil {
		// "we finished the migration to Render": a change named as a noun
		// and said done is the change
		if m[1] != "" {
			t = "we switched from " + m[1] + " to " + m[2]
		} else {
			t = "we switched to " + m[2]
		}
		c.change = true
	}
	if rest, ok := strings.CutPrefix(t, "you "); ok && c.standing && imperativeVerbs()[firstWord(rest)] {
		t = rest // "it's important to me that you explain your changes"
	}
	if m := strictAbout().FindStringSubmatch(t); m != nil && !strings.HasSuffix(m[1], "ing") && !artifacts()[lastOf(m[1])] {
		// "we're strict about type hints here": a stance on a practice is
		// the rule to follow it
		c.standing, t = true, "always use "+m[1]
	}
	if m := decidedThat().FindStringSubmatch(t); m != nil {
		c.standing, t = true, m[1]
	}
	if boundRule().MatchString(t) {
		c.standing = true // "limit lines to 100 chars": a bound on a kind of artifact is a standard
	}
	if m := tryTo().FindStringSubmatch(t); m != nil {
		// "try to keep functions pure": a softened rule over a kind of
		// thing is the rule; "try to fix the login bug" names one thing
		// and stays a task
		if determiner().MatchString(m[1]) || articleStart().MatchString(firstWord(strings.TrimPrefix(m[1], firstWord(m[1])+" "))) {
			t = m[1]
		} else {
			t = "always " + m[1]
		}
	}
	if loc := frontSoft().FindStringIndex(t); loc != nil && (isVerb(firstWord(t[loc[1]:])) || strings.HasPrefix(t[loc[1]:], "always ") || strings.HasPrefix(t[loc[1]:], "never ")) {
		// "where possible, keep functions under 40 lines": a softener
		// said before an instruction makes it a standing one, as it does
		// after it ("… where possible"); it is no condition to wait for
		c.standing, t = true, t[loc[1]:]
	}
	if loc := houseNorm().FindStringIndex(t); loc != nil && loc[1] < len(t) {
		// "it's the norm here to add a CHANGELOG entry", "the convention
		// is to squash": what the house does by custom is the instruction
		if rest := t[loc[1]:]; isVerb(firstWord(rest)) || firstWord(rest) == "always" || firstWord(rest) == "never" || firstWord(rest) == "not" {
			c.standing, t = true, rest
		}
	}
	if loc := betterIfYou().FindStringIndex(t); loc != nil {
		// a wish for a way of working: "it would be great if you always ran
		// prettier" keeps its "always" (a rule, not a taste)
		rest := strings.TrimPrefix(t[loc[1]:], "could ")
		t = "i want you to " + presentTense(rest)
	}
	if loc := hardRuleTail().FindStringIndex(t); loc != nil && loc[0] > 0 && !strings.HasSuffix(t[:loc[0]], " is") && !strings.HasSuffix(t[:loc[0]], " are") {
		// ("code review is non-negotiable" keeps its predicate)
		c.standing, t = true, t[:loc[0]]
	}
	if m := frontedInstead().FindStringSubmatch(t); m != nil && isVerb(firstWord(m[2])) {
		// "rather than mocking the db, spin up a real postgres": the
		// alternative said first; the rule is the instruction after it
		c.standing, t = true, m[2]+" instead of "+m[1]
	}
	if !containsAny(t, " as of ", " effective ", " starting ", " since ") {
		// no date after a change
	} else if loc := changeSuffix().FindStringIndex(t); loc != nil && loc[0] > 0 {
		// "moved secrets into 1Password, as of this sprint": the date a
		// change took effect, said after it
		c.change, t = true, t[:loc[0]]
	}
	if strings.Contains(t, " out of ") && outOfInto().MatchString(t) {
		t = outOfInto().ReplaceAllString(t, "$1 ${2}from $3 to ")
	}
	if containsAny(t, " all ", " entirely ", " fully ", " 100% ", " completely ", " exclusively ") && degreeValue().MatchString(t) {
		t = degreeValue().ReplaceAllString(t, "$1 $2 $3")
	}
	for _, n := range shapeNorms {
		if re := n.re(); re.MatchString(t) {
			t = re.ReplaceAllString(t, n.out) // a replacement copies the string; most clauses match none
		}
	}
	if strings.HasPrefix(t, "i am ") {
		if m := amAt().FindStringSubmatch(t); m != nil && capitalized(c.span, firstWord(m[1])) && employerLike(m[1]) {
			// "I'm at Fastly, not Akamai": being at a company is working
			// there; being at a place ("I'm at Heathrow") is a visit
			t = "i work at " + m[1] + m[2]
		} else if m := amNotAt().FindStringSubmatch(t); m != nil && capitalized(c.span, firstWord(m[1])) && employerLike(m[1]) {
			t = "i no longer work at " + m[1] // "I'm not at Stripe anymore"
		}
	}
	if m := writingFrom().FindStringSubmatch(t); m != nil && capitalized(c.span, firstWord(m[1])) {
		if v := wordVector(m[1]); v != nil && !employerLike(m[1]) {
			t = "i live in " + m[1] // "Marguerite here, writing from Montreal": where the person is at home
		}
	}
	if m := gaveUpOn().FindStringSubmatch(t); m != nil {
		if _, tool := lookupTool(m[1]); tool {
			t = "we no longer use " + m[1] // "gave up on Webpack", "got rid of Redux": a tool left behind
		}
	}
	if m := everythingIs().FindStringSubmatch(t); m != nil {
		if _, tool := lookupTool(m[1]); tool {
			t = "we use " + m[1] // "everything is React now": what it all is, is what is used
		}
	}
	if m := toolIsIn().FindStringSubmatch(t); m != nil {
		if _, tool := lookupTool(m[1]); tool {
			t = "we use " + m[1] // "Heroku is out, Render is in": the tool let in is the one used
		}
	}
	if strings.Contains(t, "back ") {
		if m := backIn().FindStringSubmatch(t); m != nil && capitalized(c.span, firstWord(m[1])) {
			// "we're back in Melbourne after two years in Perth": to be
			// back in a named place is to have moved back there, from
			// where the time away was ("back in business" names none)
			if m[2] != "" {
				t = "i moved back from " + m[2] + " to " + m[1]
			} else {
				t = "i moved back to " + m[1]
			}
		}
	}
	if loc := concessive().FindStringIndex(t); loc != nil && loc[0] > 0 {
		t = t[:loc[0]] // "always answer in English even if I write in Portuguese"
	}
	if m := nobodyRe().FindStringSubmatch(t); m != nil {
		if v, ok := thirdPersonBase(m[1]); ok {
			t = "we never " + v + " " + m[2] // "nobody pushes to main directly"
		}
	}
	if strings.Count(t, ",") >= 2 {
		t = innerAside().ReplaceAllString(t, " ") // "never, under any circumstances, delete …"
	}
	if strings.Contains(t, "everything") || strings.Contains(t, " code ") {
		t = everythingWith().ReplaceAllString(t, "$1 $2") // "we format everything with prettier"
	}
	if strings.Contains(t, "possible") {
		if loc := wherePossible().FindStringIndex(t); loc != nil && loc[0] > 0 {
			c.standing, t = true, t[:loc[0]] // "stick to the standard library where possible"
		}
	}
	if containsAny(t, "forward", "future", "default", "from now", "from here") && standingAnywhere().MatchString(t) {
		c.standing = true
	}
	if strings.Contains(t, "actually") && inlineActually().MatchString(t) {
		c.correction = true
		t = inlineActually().ReplaceAllString(t, "")
	}
	if strings.Contains(t, "probably") && !strings.Contains(t, "probably not") && inlineProbably().MatchString(t) {
		c.hedged = true
		t = inlineProbably().ReplaceAllString(t, "")
	}
	if strings.HasSuffix(t, " actually") {
		c.correction, t = true, strings.TrimSuffix(t, " actually") // "it's Mateo actually"
	}
	if strings.HasPrefix(t, "it is spel") && spelledAs().MatchString(t) {
		c.correction = true // "it's spelled Katarzyna": how a value is spelled corrects how it was
	}
	if bareMarker()[t] {
		c.correction, t = true, "" // "no - staging deploys from develop": the next clause corrects
	} else if loc := selfJudgement().FindStringIndex(t); loc != nil {
		// "I typed that wrong — it's Lille", "I misremembered: I use
		// Cursor now": the speaker judging what they said opens a
		// correction, whatever words they judge it in
		c.correction, t = true, strings.TrimSpace(t[loc[1]:])
	}
	if strings.Contains(t, "ended up") || strings.Contains(t, "went ahead and") || strings.Contains(t, "decided to") || strings.Contains(t, "finally") {
		t = endedUp().ReplaceAllStringFunc(t, func(m string) string {
			return pastOf()[lastOf(m)] // "we ended up switching to vitest": we switched
		})
	}
	if loc := gaveIn().FindStringSubmatchIndex(t); loc != nil {
		t = t[:loc[2]] + t[loc[3]:] // "finally gave in and moved to fish": moved to fish
		c.change = true
	}
	if strings.Contains(t, "this one") {
		t = thisOne().ReplaceAllString(t, "${1}this project") // "this one deploys to ECS", "styled-components in this one"
	}
	if m := bareToolHere().FindStringSubmatch(t); m != nil {
		if _, tool := lookupTool(m[1]); tool {
			t = "we use " + m[1] + " " + m[2] // "styled-components in this one": the tool this project uses
		}
	}
	if strings.HasPrefix(t, "this project") || strings.HasPrefix(t, "this repo") || strings.HasPrefix(t, "the repo") || strings.HasPrefix(t, "the monorepo") || strings.HasPrefix(t, "my dotfiles") || strings.HasPrefix(t, "are ") {
		if m := projectManagedWith().FindStringSubmatch(t); m != nil {
			if tl, ok := firstTool(m[1]); ok {
				t = "we use " + tl.Name + m[2] // "this repo is managed with bun", "the monorepo is managed with Nx"
			}
		} else if m := projectIsTool().FindStringSubmatch(t); m != nil && knownTool(m[1]) {
			t = "we use " + m[1] + m[2] // "this one's plain npm, no yarn"
		}
	}
	if m := goesOutVia().FindStringSubmatch(t); m != nil && knownTool(m[1]) {
		t = "we deploy with " + m[1] // "this one goes out via Netlify"
	}
	if m := stuckOn().FindStringSubmatch(t); m != nil {
		t = "we are on " + m[1] // "stuck on node 16 until we rewrite the auth module"
	}
	if m := backTo().FindStringSubmatch(t); m != nil && knownTool(m[2]) {
		// "back to plain npm", "we dropped yarn, back to plain npm with
		// workspaces": the tool returned to is the one in use (the one
		// dropped is what it replaces, from the conversation)
		c.change, t = true, "we use "+m[2]+" now"
		if w := firstWord(m[1]); m[1] != "" && w != "we" && w != "i" {
			t = m[1] + "we use " + m[2] + " now"
		}
	}
	if m := startedAt().FindStringSubmatch(t); m != nil && capitalized(c.span, firstWord(m[2])) && !knownTool(m[2]) {
		if m[1] != "" && lastDayAt().MatchString(m[1]) {
			c.change, t = true, "i work at "+m[2] // "last day at klarna was friday, started at Monzo today"
		} else if m[1] == "" {
			c.change, t = true, "i work at "+m[2] // "started at Monzo today"
		}
	}
	if m := movedKindFrom().FindStringSubmatch(t); m != nil {
		if _, ok := stackSlot(m[1]); ok {
			c.change, t = true, "we switched our "+m[1]+" from "+m[2]+" to "+m[3] // "moved hosting from Heroku to Railway over the weekend"
		}
	}
	if strings.HasPrefix(t, "we ") || strings.HasPrefix(t, "i ") {
		t = deployThis().ReplaceAllString(t, "$1 ") // "we deploy this to Render"
	}
	if m := kindBehind().FindStringSubmatch(t); m != nil {
		t = "the " + m[1] + " is " + m[2] // "the database behind this service is CockroachDB"
	}
	if m := movedWhole().FindStringSubmatch(t); m != nil {
		who := m[1]
		if who == "" {
			who = "i"
		}
		c.change, t = true, who+" switched to "+m[2] // "moved my whole setup over to emacs"
		if g := goodbyeTail().FindStringSubmatch(m[2]); g != nil {
			t = who + " switched from " + g[2] + " to " + g[1] // "…, goodbye vscode": the tool left
		}
	}
	if m := relocated().FindStringSubmatch(t); m != nil && (m[1] != "" || m[2] == "relocated" || capitalized(c.span, firstWord(m[3]))) {
		who := m[1]
		if who == "" {
			who = "i " // "relocated to Da Nang a couple months ago"
		}
		c.change, t = true, who+"moved to "+agoTail().ReplaceAllString(m[3], "")
	}
	if strings.Contains(t, " going ") {
		t = goingThrough().ReplaceAllString(t, "go $1 ") // "deploys are going through spinnaker now"
	}
	if strings.Contains(t, ", not ") {
		t = notPlain().ReplaceAllString(t, "$1") // "neovim really, not plain vim"
	}
	if m := machineRuns().FindStringSubmatch(t); m != nil {
		t = "i am on " + m[1] // "my laptop runs arch linux"
	}
	if m := workingAs().FindStringSubmatch(t); m != nil && !strings.HasPrefix(m[1], "a ") && !strings.HasPrefix(m[1], "an ") && !strings.HasPrefix(m[1], "the ") {
		art := "a "
		if strings.ContainsRune("aeiou", rune(m[1][0])) {
			art = "an "
		}
		t = "i work as " + art + m[1] // "i am working as staff engineer in the platform team"
	} else if m != nil {
		t = "i work as " + m[1]
	}
	if w := firstWord(t); w == "bumped" || w == "upgraded" || w == "downgraded" {
		t = "we " + t // "bumped the repo to java 21 from 17"
	}
	if m := toFromVersion().FindStringSubmatch(t); m != nil {
		t = m[1] + " from " + m[2] + m[4] + " to " + m[2] + m[3] // "to java 21 from 17": from java 17 to java 21
	}
	if m := forNowSlot().FindStringSubmatch(t); m != nil {
		t = m[1] // "Idris is my manager for now": a stand-in holds the slot
	}
	if m := droppedSubject().FindStringSubmatch(t); m != nil {
		who := "i"
		if w := firstWord(m[1]); w == "running" || w == "deploying" || w == "hosting" {
			who = "we" // "been deploying with fly for months": the house's work
		}
		t = who + " have been " + m[1] // "been using Helix since spring": the speaker has
	}
	if strings.Contains(t, "been ") {
		t = heldAdverb().ReplaceAllString(t, "$1") // "using helix full time since spring"
		if m := perfectProgressive().FindStringSubmatch(t); m != nil {
			t = m[1] + " " + baseOf[m[2]] + " " + durationTail().ReplaceAllString(m[3], "") // "we have been running postgres since march": we run it
		}
	}
	if strings.HasPrefix(c.span, "*") {
		c.correction = true // "*Joanna": the chat way of fixing a word
	}
	if c.correction {
		if m := sourceSays().FindStringSubmatch(t); m != nil {
			t = "it is " + m[1] // "wait, I misspoke, .nvmrc says 20": what the file says is the value
		} else if m := toolsHere().FindStringSubmatch(t); m != nil && knownTool(m[1]) {
			t = "we use " + m[1] + m[2] // "no sorry, mocha + chai here": the tools in use
		}
	}
	if m := pastEvent().FindStringSubmatch(t); m != nil {
		// "after the reorg my manager is Chen", "since the migration, we
		// use MongoDB": what follows is how things are since
		c.change, t = true, m[1]
	}
	if strings.Contains(t, " now ") || strings.Contains(t, " currently ") {
		t = nowOn().ReplaceAllString(t, "$1 $3") // "we are now on X": we are on X (now)
	}
	if (c.standing || c.change) && willModal().MatchString(t) {
		t = willModal().ReplaceAllString(t, "$1 $2") // "moving forward we'll use Bun": a decision, not a plan
	}
	if strings.HasPrefix(t, "never") && neverEver().MatchString(t) {
		t = neverEver().ReplaceAllString(t, "never ever")
	}
	if m := habitualProgressive().FindStringSubmatch(t); m != nil {
		// "we are always writing the test first": a habit said in the
		// progressive, as "we always write the test first"
		if base, ok := baseVerb(m[3]); ok {
			t = m[1] + " " + m[2] + " " + base + t[len(m[0]):]
		}
	}
	if isVerb(firstWord(t)) && eachTime().MatchString(t) {
		c.standing = true // "keep the changelog updated with each user-facing change"
	}
	if m := scopeThem().FindStringSubmatch(t); m != nil && isVerb(m[2]) && (artifacts()[m[1]] || practices()[m[1]]) {
		// "for errors: wrap them with fmt.Errorf and %w": "them" is the
		// kind the rule is for
		c.standing, t = true, m[2]+" "+m[1]+" "+m[3]
	} else if m := classScope().FindStringSubmatch(t); m != nil && isVerb(firstWord(m[2])) {
		// "in Go code, wrap errors with %w", "for yaml files, indent with
		// two spaces": a rule over a kind of code, said before it
		c.standing, t = true, m[2]+" in "+m[1]
	}
	if habitVerb().MatchString(t) {
		c.standing = true // "stick to British English in docs", "only use the standard library"
		if rest, ok := strings.CutPrefix(t, "only "); ok {
			v, obj, _ := strings.Cut(rest, " ")
			t = v + " only " + obj // "only use the standard library": use only it
		}
	}
	if imperativeVerbs()[firstWord(t)] && everyTime().MatchString(t) {
		// a habit marked inside an instruction: it is standing
		c.standing = true
		t = strings.Join(strings.Fields(strings.Trim(trailHabit().ReplaceAllString(t, " "), " ,")), " ")
	}
	if strings.Contains(t, " to ") {
		t = policyTo().ReplaceAllString(t, "$1") // "our policy is to never store PII in logs"
	}
	if strings.Contains(t, " since ") {
		t = usingSince().ReplaceAllString(t, "$1 ") // "we are using since many years Jenkins"
	}
	if strings.Contains(t, "called ") || strings.Contains(t, "named ") {
		t = calledName().ReplaceAllString(t, "$1 ") // "my boss is called Hana"
	}
	if strings.Contains(t, " using ") {
		t = verbUsing().ReplaceAllString(t, "$1 with") // "we lint using ESLint"
	}
	if strings.Contains(t, " with ") && doneWithRe().MatchString(t) {
		t = doneWithRe().ReplaceAllString(t, "$1 no longer use $2") // "we're done with Heroku"
	}
	if containsAny(t, "would", "should", "let us", "will") || strings.HasPrefix(t, "you ") {
		for _, r := range politeRewrites {
			t = r.re().ReplaceAllString(t, r.out)
		}
	}
	if loc := guidePreamble().FindStringIndex(t); loc != nil {
		t = t[:loc[1]] + presentTense(t[loc[1]:]) // "I'd rather you asked first": ask first
	}
	if loc := authorityReason().FindStringIndex(t); loc != nil && loc[0] > 0 && imperativeVerbs()[firstWord(strings.TrimPrefix(t, "please "))] {
		// "indent with two spaces since the style guide says so": the
		// reason cites a standing rule, and is not reported speech
		c.standing, t = true, t[:loc[0]]
	}
	c.text = strings.Trim(t, " .!;:,-")
	return c
}

// trailingFillers end a clause without adding to it.
var trailingFillers = []string{"please", "thanks", "thank you", "ty", "from now on", "going forward",
	"moving forward", "from here on", "in the future", "in future", "by default", "as well", "too",
	"also", "anymore", "any more", "now", "nowadays", "these days", "ok", "okay", "btw", "lol", "haha",
	"though", "again", "for all projects", "everywhere", "fyi", "fwiw"}

// stripTrailing removes fillers that end a clause ("..., please", "now",
// "anymore") once the filters have seen them.
func stripTrailing(t string) string {
	for changed := true; changed; {
		changed = false
		t = strings.TrimRight(t, " ,")
		for _, f := range trailingFillers {
			rest, ok := strings.CutSuffix(t, f)
			if ok && (rest == "" || rest[len(rest)-1] == ' ' || rest[len(rest)-1] == ',') {
				t, changed = rest, true
				break
			}
		}
	}
	return t
}

// thirdPersonBase turns "pushes", "merges", "deploys" into the verb.
func thirdPersonBase(v string) (string, bool) {
	for _, cand := range []string{strings.TrimSuffix(v, "es"), strings.TrimSuffix(v, "s"), strings.TrimSuffix(v, "ies") + "y"} {
		if cand != v && (imperativeVerbs()[cand] || moreVerbs()[cand]) {
			return cand, true
		}
	}
	return "", false
}

var (
	// overflowTail says what to do past a limit just set: ", if it is
	// longer split it", ", if they get bigger break them up".
	overflowTail = lazyRegexp(`,?\s+if (?:it|they|one|a [a-z]+) (?:is|are|gets?|goes|grows) (?:any )?(?:longer|bigger|larger|more|over|past|above)\b.*$`)
	// limitWord sets a limit: "under 40 lines", "below 400 lines", "at
	// most 3 arguments".
	limitWord = lazyRegexp(`\b(?:under|below|within|at most|no more than|max|less than|fewer than) [0-9]+\b`)
)
