package extract

import (
	"regexp"
	"strings"

	"github.com/credence-mem/credence/relations"
)

// Readings of session 13 (EXT13) for shapes a scenario set lost at
// extraction, each a shape of English cued by a cheap test before its
// pattern runs:
//
//   - a home told as settling in: "finally settled into the new flat in
//     Glasgow", "just moved into a place in Leeds" (where the person
//     lives now, replacing the old value);
//   - a finished change told as the change itself: "the MariaDB swap is
//     done", "postgres migration complete", "swapped over to biome";
//   - where the person is working, said before a question: "in Zed right
//     now, how do I split the pane?", "on fedora atm - how do I …";
//   - a project named by a letter or an identifier: "B uses biome",
//     "billing-api deploys to fly.io", "repo Atlas uses pnpm";
//   - an environment's address: "staging is at staging.example.dev";
//   - a port of something beside the app, "metrics on 9090";
//   - how the person commutes, when they work best (an allergy is read
//     by buried13.go as the diet's).

var (
	// "finally settled into the new flat in Glasgow", "we just moved
	// into a house in Leeds", "settled in Porto at last"
	settledInRe = regexp.MustCompile(`^(?:(?:[Ii]|[Ww]e)(?:'ve|'m|'re|\s+have|\s+am|\s+are)?\s+)?(?:(?:finally|just|now|all|officially|properly)\s+)*(?:settled|settling|moved|moving|got\s+settled)\s+(?:in(?:to)?\s+(?:(?:a|the|my|our)\s+(?:new\s+)?(?:little\s+)?(?:flat|apartment|house|place|home|condo|studio|flatshare|room)\s+in\s+)?|(?:in(?:to)?\s+)?(?:(?:a|the|my|our)\s+(?:new\s+)?(?:flat|apartment|house|place|home|condo|studio|flatshare|room)\s+in\s+))(` + placeName + `)(?:\s+(?:at\s+last|finally|now|last\s+week|this\s+week|yesterday|today|over\s+the\s+weekend))?(?:[\s.!]*$|\s*[,;:—–-]\s*\S.*$)`)

	// "the MariaDB swap is done", "postgres migration complete",
	// "our move to pnpm is finished"
	swapDoneRe = lazyRegexp(`^(?:ok |okay |so |and |yay |finally |update: ?)?(?:the |our |my )?(?:(?:move|switch|swap|migration|cutover|transition) (?:to|over to) )?([a-z0-9][a-z0-9.+#-]*(?: [a-z0-9][a-z0-9.+#-]*)??)(?: (?:swap|switch|switchover|migration|move|cutover|transition|rollout))?(?: (?:is|was|has been|got))? (?:finally |officially |fully |all )?(?:done|complete|completed|finished|live|landed|merged|shipped|wrapped up)(?: now| today| finally| at last| yesterday| last night| this morning| last week)?$`)

	// "swapped to MariaDB", "we swapped over to biome"
	swappedToRe = lazyRegexp(`^(?:we |i )?(?:have )?(?:finally |just )?(?:swapped|switched) (?:over )?to ([a-z0-9][a-z0-9.+#-]*(?: [a-z0-9][a-z0-9.+#-]*)??)(?: now| today| finally| at last)?$`)

	// "in Zed right now", "using helix atm", "on fedora at the moment"
	inToolNowRe = lazyRegexp(`^(?:i am |currently |working )?(in|using|on) ([a-z0-9][a-z0-9.+#-]*(?: [a-z0-9][a-z0-9.+#-]*)??)( (?:right now|rn|atm|at the moment|currently|these days|today|now))?$`)

	// "B uses biome", "billing-api deploys to fly.io", "repo Atlas
	// uses pnpm", "project B lints with ruff"
	namedProjectRe = regexp.MustCompile(`^(?:(?:[Pp]roject|[Rr]epo|[Ss]ervice|[Aa]pp|[Pp]ackage)\s+(\S+)|([A-Z]|[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+|[A-Z][A-Za-z]*\d+[A-Za-z0-9]*))\s+(uses|runs on|deploys to|deploys with|builds with|lints with|formats with|is written in|is on|tests with)\s+(\S+(?:\s+\S+)?)[\s.!]*$`)

	// "staging is at staging.harborlight.dev", "prod lives at
	// https://app.example.com"
	envAtRe = lazyRegexp(`^(?:the |our )?(staging|prod|production|dev|development|preview|qa|uat|sandbox|demo|docs|status page|admin|dashboard)(?: env| environment| site| server| instance| app| deploy)? (?:is|lives|runs|sits|is hosted|is deployed|is up|is live) (?:at|on) ((?:https?://)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?::\d+)?(?:/\S*)?)$`)

	// "metrics on 9090", "the metrics endpoint is on port 9090",
	// "grpc listens on 50051"
	listenerPortRe = lazyRegexp(`^(?:the |our )?(` + auxListeners + `)(?: endpoint| server| port| exporter| ui| api)? (?:(?:is|are|runs|run|listens|listen|is exposed|are exposed|is served|are served|lives) )?(?:on|at) (?:port |:)?(\d{2,5})$`)

	// "I commute by train", "i bike to work", "I take the train to
	// the office"
	commuteByRe   = lazyRegexp(`^i (?:usually |mostly |normally |always |now |mainly |still |currently )?(?:commute|get to work|go to work|travel to work|go to the office|get to the office|go in|get in) (?:by|on|via) (?:the |a |my )?(train|bus|bike|bicycle|car|tram|subway|metro|tube|ferry|foot|scooter|e-bike|ebike|motorbike|motorcycle|underground|rail)\b`)
	commuteVerbRe = lazyRegexp(`^i (?:usually |mostly |normally |always |now |mainly |still |currently )?(?:(bike|cycle|walk|drive|run)|take (?:the |a )?(train|bus|tram|subway|metro|tube|ferry)) (?:in )?to (?:work|the office)\b`)

	// "I do my best coding early mornings", "I'm most productive late
	// at night", "I work best in the mornings"
	bestTimeRe = lazyRegexp(`^i (?:(?:do|write) my best (coding|work|thinking|writing|debugging)|am (?:most productive|at my best|sharpest)|(?:work|code|think|focus|write) best) ((?:(?:early|late) )?(?:in the )?(?:mornings?|evenings?|nights?|afternoons?)|(?:late )?at night|before (?:noon|lunch|\d{1,2}(?:am)?)|after (?:dinner|lunch|\d{1,2}(?:pm)?))\b`)
)

// nowFirst is a present state opened by "now": "now I live in Bergen",
// "now we deploy with fly".
var nowFirst = lazyRegexp(`^(?:and |but )?now,? ((?:i|we|my|our) .+)$`)

// modalBefore ends a phrase with a modal or an auxiliary: in "tests must
// not hit the network" the "not" negates the verb, it sets no
// alternative against "tests must" (guideline.go).
var modalBefore = lazyRegexp(`\b(?:must|should|shall|can|could|will|would|may|might|need|needs|do|does|did|is|are|was|were|has|have|had|ought to)$`)

var (
	// rememberClause: "remember Dana is our tech lead", "please remember
	// I have a border collie called Juno".
	rememberClause = lazyRegexp(`^(?:please |pls |and |also )?(?:remember|do not forget|never forget|bear in mind) ((?:i|we|my|our|the|this|[a-z]+) .+)$`)
	// breedCalled: "I have a border collie called Juno", "we have a
	// tabby cat named Miso".
	breedCalled = lazyRegexp(`^(?:i|we) (?:have|have got|got|own) (?:a|an) ((?:[a-z-]+ ){0,2}(?:collie|retriever|terrier|spaniel|poodle|labrador|lab|beagle|husky|shepherd|corgi|dachshund|pug|bulldog|greyhound|whippet|schnauzer|boxer|rottweiler|dalmatian|chihuahua|doodle|labradoodle|cockapoo|mutt|pup|tabby|siamese|persian|ragdoll|maine coon|sphynx|bengal|moggy|cat|dog))s? (?:named|called) (.+)$`)
	catBreed    = lazyRegexp(`\b(?:tabby|siamese|persian|ragdoll|maine coon|sphynx|bengal|moggy|cat)$`)
	// houseScopedSlot: "the tech lead on this repo is Aurelio", "our manager
	// for this project is Ines".
	houseScopedSlot = lazyRegexp(`^(?:the |our |my )?((?:[a-z]+ ){0,2}(?:lead|manager|owner|maintainer|reviewer|pm|product manager|designer|contact|point of contact|on-call)) (?:on|for|in|of) (?:this|the|our) (?:repo|repository|project|team|codebase|service|app|one) (?:is|=) (.+)$`)
)

var (
	// ditchedBare: "Ditched eslint + prettier", "dropped jest".
	ditchedBare = lazyRegexp(`^(?:just |finally |also )?(ditched|dropped|removed|ripped out|got rid of|uninstalled|dumped) ((?:[a-z0-9.#-]+)(?: (?:\+|and|&) [a-z0-9.#-]+)*)$`)
	// envMoved: "staging moved from Heroku to Render", "prod got
	// migrated from aws to fly.io last week".
	envMoved = lazyRegexp(`^(?:(?:the )?(?:staging|prod|production|preview|dev|the app|the api|the site|the frontend|the backend|the docs|docs)(?: (?:env|environment|site|server|app))?) (?:has |just |finally |also )?(?:moved|migrated|switched|went|got moved|got migrated|was moved|was migrated) (?:over )?from ([a-z0-9.-]+(?: [a-z0-9.-]+)?) (?:over )?to ([a-z0-9.-]+(?: [a-z0-9.-]+)?)(?: (?:last|this) (?:week|month|sprint)| yesterday| today| now)?$`)
	// doesBoth: "Biome does both now", "ruff handles all of it".
	doesBoth = lazyRegexp(`^([a-z0-9.+#-]+) (?:does|handles|covers|takes care of|replaces|is doing) (?:both|both of them|both jobs|all of (?:it|them)|everything|it all|them all|all three)(?: now| these days| instead)?$`)
)

var (
	// starredNot: "8080* not 8000", "vercel* not netlify".
	starredNot = lazyRegexp(`^(\S+)\*,? (?:not|instead of) (\S+)$`)
	// valueThenReason: "siemens healthineers actually, its a separate
	// company", "Porto actually, I mixed them up".
	valueThenReason = lazyRegexp(`^(?:(?:no|nope|sorry|oops|wait),? )?([a-z0-9][\w .&'-]*?),? actually,? (?:it'?s|its|it is|that'?s|thats|which is|i mixed|i misspoke|my bad|typo|different|a different|the other)\b.*$`)
	// cleftBranch: "its the production branch that deploys".
	cleftBranch = lazyRegexp(`^(?:it is|its|it's) (?:the |our )?([a-z0-9._/-]+) branch (?:that|which) (?:deploys|gets deployed|ships|goes out|goes to prod|is deployed|we deploy)\b`)
	// modifierRepair: "fullstack really", "backend actually".
	modifierRepair = lazyRegexp(`^(?:well,? |ok,? |no,? |sorry,? )?([a-z][a-z-]+)( really| actually| technically)?$`)
	// doingDegree: "I am doing PhD in computational linguistics".
	doingDegree = lazyRegexp(`^i am (?:doing|pursuing|finishing|in the middle of|working on|studying for) (?:a |an |my )?(phd|doctorate|masters|master's|msc|mba|bachelors|bachelor's|bsc)\b`)
	// valueNotShort: "product designer, not pm".
	valueNotShort = lazyRegexp(`^([a-z][a-z -]+?),? not (?:a |an )?([a-z]{2,4})$`)
)

var fillerWords = map[string]bool{"err": true, "er": true, "oops": true, "whoops": true, "ugh": true, "meh": true, "ahh": true, "argh": true, "hmmm": true, "no": true, "nope": true, "sorry": true, "wait": true, "erm": true, "um": true, "uh": true, "uhm": true, "hmm": true, "oh": true, "ok": true,
	"okay": true, "well": true, "so": true, "yeah": true, "ah": true, "eh": true, "hm": true, "lol": true}

// roleModifiers are the words that qualify a role: "frontend developer",
// "staff engineer".
var roleModifiers = map[string]bool{"frontend": true, "front-end": true, "backend": true, "back-end": true, "fullstack": true, "full-stack": true,
	"devops": true, "data": true, "ml": true, "mobile": true, "ios": true, "android": true, "platform": true, "infra": true,
	"infrastructure": true, "security": true, "qa": true, "test": true, "staff": true, "senior": true, "junior": true, "lead": true,
	"principal": true, "embedded": true, "game": true, "web": true, "cloud": true, "sre": true, "product": true, "ux": true, "ui": true,
	"software": true, "systems": true, "research": true, "analytics": true, "solutions": true, "support": true}

// initials are the first letters of a phrase's words: "product manager"
// is "pm".
func initials(s string) string {
	var b strings.Builder
	for _, w := range strings.Fields(strings.ToLower(s)) {
		b.WriteByte(w[0])
	}
	if b.Len() < 2 {
		return ""
	}
	return b.String()
}

var (
	// movedOff: "we moved off Jenkins onto CircleCI", "i migrated off
	// heroku to fly.io".
	movedOff = lazyRegexp(`^(we|i) (?:have )?(?:finally |just )?(?:moved|migrated|switched|got) (?:off|away from) (?:of )?([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)?) (?:onto|to|for|in favou?r of) ([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)??)(?: (?:last|this) (?:week|month|sprint|quarter|year)| yesterday| today| recently)?(?:,? (?:and|but|so) .*)?$`)
	// swappedPair: "we swapped eslint+prettier for biome".
	swappedPair = lazyRegexp(`^(?:we |i )?(?:have )?(?:swapped|replaced|traded|ditched|dropped|switched) ([a-z0-9.#-]+) ?(?:\+|&|and|/) ?([a-z0-9.#-]+) (?:for|with) ([a-z0-9.+#-]+)$`)
	// leadStar: "*8001, 8000 is the docs server".
	leadStar = lazyRegexp(`^\*\s*([^,\s]+),\s*\S.*$`)
	// sinceDate: "since the 1st we're a Gradle shop".
	sinceDate = lazyRegexp(`^since (?:the )?\d{1,2}(?:st|nd|rd|th)?(?: of [a-z]+)?,? ((?:we|i|my|our|the) .+)$`)
	// reachFirst: "where possible, composition over inheritance".
	reachFirst = lazyRegexp(`^(?:where|wherever|whenever|when) (?:possible|you can|it makes sense|feasible|practical),? (.+)$`)
	// sinceDoing: "… since moving to the singapore office".
	sinceDoing = lazyRegexp(`\s+since (?:moving|switching|joining|starting|relocating|changing|we moved|i moved)\b.*$`)
	// leadOn: "Hideo is tech lead on the renderer".
	leadOn = regexp.MustCompile(`^([A-Z][a-z]+(?: [A-Z][a-z]+)?) is (?:the |our )?(tech lead|team lead|lead|product manager|pm|owner|maintainer) (?:on|for|of) (?:the |our )?[a-z][\w -]*[.!]?$`)
	// talksTo: "the app talks to postgres through prisma".
	talksTo = lazyRegexp(`^(?:the |our |this )?(?:app|api|service|backend|server|frontend|worker|site) (?:talks|connects|writes|reads) (?:to|from) ([a-z0-9.+#-]+)(?: (?:through|via|using|with) ([a-z0-9.+#-]+))?$`)
)

// personBased is where the person just named is based, said as where
// they live, sit or work from: "she sits in Accra", "he works out of
// Lagos" (after "my boss is Gwendolyn Asare").
var personBased = regexp.MustCompile(`^(?:[Ss]he|[Hh]e|[Tt]hey) (?:lives|live|sits|sit|is based|are based|works|work) (?:in|out of|from) (` + placeName + `)\b`)

// fullName is a person's first and last name as written: "Gwendolyn
// Asare" (a manager so named is "she" in the next clause, extract.go).
var fullName = regexp.MustCompile(`^[A-Z][a-z]+ [A-Z][a-z'-]+$`)

// numericSlot is an open slot whose noun measures: "line_length_is",
// "max_file_size_is", "retry_limit_is" hold numbers, so a bare number
// corrects them (correct.go).
var numericSlot = lazyRegexp(`_(?:length|size|limit|count|width|timeout|ttl|max|min|depth|threshold|budget|retries|indent|indentation|coverage|workers|replicas)_is$`)

// toolIsVersion: "Ruby is 3.2.2 on this repo", "node is 20 here".
var toolIsVersion = lazyRegexp(`^([a-z][a-z0-9.+#-]*) (?:is|=) v?(\d+(?:\.\d+){0,2})(?: on this repo| in this repo| here| for us| now| in this project)?$`)

// kindNounIs: "the build tool is Vite", "the IaC is all CDK in
// TypeScript".
var kindNounIs = lazyRegexp(`^(?:the |our )?((?:[a-z0-9/-]+ )?[a-z0-9/-]+) (?:is|are) (?:all |just |mostly |basically )?([a-z0-9.+#-]+(?: [a-z0-9.+#-]+)??)(?: (?:in|on|with) [a-z0-9.+#-]+| here| on this repo| in this repo| for us| now)?$`)

// alternativeSaid is a rule said as a ban's alternative: "use unknown
// instead", "use named constants".
var alternativeSaid = lazyRegexp(`^(?:(?:and|but|so|just|pls|please),? )?use \S.*$|\binstead\b`)

// portPair: "the app runs on 3000 and metrics on 9090", "metrics on
// 9090, app on 3000".
var portPair = lazyRegexp(`^(?:the |our )?([a-z]+(?: [a-z]+)??)(?: server)? (?:runs |listens |is |is served |is exposed )?on (?:port )?(\d{2,5}),?(?: and)? (?:the |our )?([a-z]+(?: [a-z]+)??)(?: server)? (?:runs |listens |is |is served |is exposed )?on (?:port )?(\d{2,5})$`)

// appPort: "the app runs on port 3000".
var appPort = lazyRegexp(`^(?:the |our |this )?(?:app|web app|site|service|server|backend)(?: server)? (?:runs|listens|is running|is served|is|lives) (?:on|at) (?:port |localhost:|:)?(\d{2,5})$`)

// appListener are the app's own servers, whose port is the project's.
var appListener = map[string]bool{"app": true, "api": true, "server": true, "backend": true, "service": true, "web app": true, "site": true, "web": true}

// auxListeners are what listens beside the app's own server: telemetry,
// debugging and RPC endpoints, whose ports are slots of their own
// ("metrics on 9090" does not move the app off 3000).
const auxListeners = `metrics|prometheus|debug|debugger|pprof|profiler|health|healthcheck|health check|websocket|websockets|ws|tracing|jaeger|otel|otlp|hmr|livereload|storybook`

// first13 reads a clause before the matchers do, for shapes they read
// wrongly: a present state opened by "now" ("… and now I live in
// Bergen" was read as a slot named "now").
func (r *reading) first13(c *clause) []Fact {
	if strings.Contains(c.text, "settl") || strings.Contains(c.text, "moved") || strings.Contains(c.text, "moving") {
		// "finally settled into the new flat in Glasgow"
		if m := settledInRe.FindStringSubmatch(strings.TrimSpace(c.span)); m != nil && cityLike(m[1]) && !gatheringWord().MatchString(m[1]) && !knownTool(strings.ToLower(m[1])) {
			if fs := r.readAs(c, "I live in "+m[1]+" now", true); fs != nil {
				return fs
			}
		}
	}
	if m := portPair().FindStringSubmatch(strings.TrimRight(strings.ToLower(strings.TrimSpace(c.span)), ".!")); m != nil {
		// "the app runs on 3000 and metrics on 9090": each port keyed by
		// what listens on it
		var out []Fact
		for _, p := range [][2]string{{m[1], m[2]}, {m[3], m[4]}} {
			switch {
			case auxListenerIn().MatchString(p[0]):
				out = append(out, Fact{Subject: SubjectProject, Predicate: listenerSlot(auxListenerIn().FindStringSubmatch(p[0])[1]), Object: p[1]})
			case appListener[p[0]]:
				out = append(out, Fact{Subject: SubjectProject, Predicate: "port_is", Object: p[1]})
			}
		}
		if len(out) == 2 {
			return out
		}
	}
	if m := movedOff().FindStringSubmatch(c.text); m != nil {
		// "we moved off Jenkins onto CircleCI last month and nobody
		// misses it": a switch, whatever is said after it
		if fs := r.readAs(c, m[1]+" switched from "+m[2]+" to "+m[3], true); fs != nil {
			return fs
		}
	}
	if c.correction && strings.HasPrefix(strings.TrimSpace(c.span), "*") {
		if m := leadStar().FindStringSubmatch(strings.TrimSpace(c.span)); m != nil {
			// "*8001, 8000 is the docs server": the repaired value, then a
			// remark
			rw := analyze(rawClause{text: m[1]})
			rw.span, rw.correction = c.span, true
			if fs := r.extractClause(&rw); len(fs) > 0 {
				*c = rw
				return fs
			}
		}
	}
	if m := swappedPair().FindStringSubmatch(c.text); m != nil {
		// "we swapped eslint+prettier for biome": the new tool takes the
		// slot of each old one it can fill
		if now, ok := lookupTool(m[3]); ok {
			var out []Fact
			for _, o := range []string{m[1], m[2]} {
				if old, ok := lookupTool(o); ok && old.Name != now.Name {
					for _, cat := range old.Categories {
						if p := categoryPredicate()[cat]; p != "" && fillsSlot(now, p) {
							out = append(out, Fact{Subject: SubjectProject, Predicate: p, Object: now.Name, Replaces: old.Name, shownObject: now.Display})
							break
						}
					}
				}
			}
			if out != nil {
				c.change = true
				return out
			}
		}
	}
	if m := sinceDate().FindStringSubmatch(c.text); m != nil {
		// "since the 1st we're a Gradle shop": a change dated
		if fs := r.readAs(c, m[1], true); fs != nil {
			return fs
		}
	}
	if m := reachFirst().FindStringSubmatch(c.text); m != nil {
		// "where possible, composition over inheritance": a rule with its
		// reach said first
		rc := rawClause{text: m[1]}
		rw := analyze(rc)
		rw.correction = c.correction
		if fs := r.extractClause(&rw); len(fs) > 0 {
			*c = rw
			return fs
		}
		saved := *r
		for _, alt := range r.rewordings(rc, &rw) {
			if fs := r.extractClause(&alt); len(fs) > 0 {
				*c = alt
				return fs
			}
			*r = saved
		}
	}
	if m := starredNot().FindStringSubmatch(c.text); m != nil {
		// "8080* not 8000": the star marks the repair, the rest names what
		// it repairs
		rw := analyze(rawClause{text: m[1] + ", not " + m[2]})
		rw.span, rw.correction = c.span, true
		if fs := r.extractClause(&rw); len(fs) > 0 {
			*c = rw
			return fs
		}
	}
	if c.correction {
		if m := valueThenReason().FindStringSubmatch(strings.ToLower(c.span)); m != nil && !fillerWords[m[1]] {
			// "siemens healthineers actually, its a separate company": the
			// value, then why
			rw := analyze(rawClause{text: "actually " + m[1]})
			rw.span, rw.correction = c.span, true
			if fs := r.extractClause(&rw); len(fs) > 0 {
				*c = rw
				return fs
			}
			for _, cand := range r.candidates() {
				// "siemens healthineers" after "I work at Siemens": the
				// value said in full, of which the old was a part
				if cand.Kind == KindFact && !cand.Negated && !strings.EqualFold(cand.Object, m[1]) && strings.HasPrefix(m[1], strings.ToLower(cand.Object)+" ") {
					return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: m[1], Replaces: cand.Object, Correction: true,
						shownObject: upperWords(m[1])}}
				}
			}
		}
		if m := cleftBranch().FindStringSubmatch(c.text); m != nil {
			// "actually its the production branch that deploys"
			if fs := r.readAs(c, "we deploy from the "+m[1]+" branch", false); fs != nil {
				return fs
			}
		}
	}
	if m := modifierRepair().FindStringSubmatch(c.text); m != nil && (c.correction || m[2] != "") && roleModifiers[m[1]] {
		// "well, fullstack really" after "I'm a frontend developer": the
		// word that qualifies the role repaired, the role kept
		for _, cand := range r.candidates() {
			if cand.Kind != KindFact || cand.Negated || cand.Predicate != "role_is" || cand.own {
				continue
			}
			w := strings.Fields(cand.Object)
			if len(w) == 2 && roleNouns()[w[1]] && w[0] != m[1] && !roleNouns()[m[1]] {
				return []Fact{{Subject: cand.Subject, Predicate: "role_is", Object: m[1] + " " + w[1], Replaces: cand.Object, Correction: true}}
			}
			break
		}
	}
	if m := doingDegree().FindStringSubmatch(c.text); m != nil {
		// "I am doing PhD in computational linguistics"
		deg := map[string]string{"phd": "PhD", "doctorate": "PhD", "masters": "master's", "master's": "master's", "msc": "MSc", "mba": "MBA", "bachelors": "bachelor's", "bachelor's": "bachelor's", "bsc": "BSc"}[m[1]]
		return []Fact{{Subject: SubjectUser, Predicate: "role_is", Object: strings.ToLower(deg) + " student", shownObject: deg + " student"}}
	}
	if m := valueNotShort().FindStringSubmatch(c.text); m != nil {
		// "not PM — product designer": the value set against the short
		// form of one just said
		for _, cand := range r.candidates() {
			if cand.Kind == KindFact && !cand.Negated && initials(cand.Object) == m[2] && len(m[2]) >= 2 {
				return []Fact{{Subject: cand.Subject, Predicate: cand.Predicate, Object: m[1], Replaces: cand.Object, Correction: true,
					shownObject: display(c.span, m[1])}}
			}
		}
	}
	if m := ditchedBare().FindStringSubmatch(c.text); m != nil {
		// "Ditched eslint + prettier": the subject dropped, "+" for "and"
		if fs := r.readAs(c, "we "+m[1]+" "+strings.ReplaceAll(m[2], " + ", " and "), c.change); fs != nil {
			return fs
		}
	}
	if m := rememberClause().FindStringSubmatch(c.text); m != nil && !startsWithVerb(m[1]) && firstWord(m[1]) != "to" {
		// "remember Dana is our tech lead": what is to be remembered is a
		// statement, said without "that" or a colon
		rw := analyze(rawClause{text: m[1]})
		rw.span, rw.correction, rw.directive = c.span, c.correction, true
		if fs := r.extractClause(&rw); len(fs) > 0 {
			*c = rw
			return fs
		}
	}
	if strings.HasPrefix(c.text, "now") || strings.HasPrefix(c.text, "and now") || strings.HasPrefix(c.text, "but now") {
		if m := nowFirst().FindStringSubmatch(c.text); m != nil {
			return r.readAs(c, m[1]+" now", true)
		}
	}
	return nil
}

// instead13 holds the readings of session 13 for a clause that gave
// nothing.
func (r *reading) instead13(rc rawClause, c *clause) []Fact {
	t := c.text
	span := strings.TrimSpace(rc.text)
	if m := swapDoneRe().FindStringSubmatch(t); m != nil {
		if tl, ok := lookupTool(m[1]); ok && !strings.Contains(t, "almost") {
			if fs := r.readAs(c, "we switched to "+tl.Name, true); fs != nil {
				return fs
			}
		}
	}
	if m := swappedToRe().FindStringSubmatch(t); m != nil {
		if _, ok := lookupTool(m[1]); ok {
			if fs := r.readAs(c, "we switched to "+m[1], true); fs != nil {
				return fs
			}
		}
	}
	if m := inToolNowRe().FindStringSubmatch(t); m != nil && (m[1] == "using" || m[3] != "") && r.beforeQuestion(span) {
		if tl, ok := lookupTool(m[2]); ok && workplaceTool(tl, m[1]) {
			if fs := r.readAs(c, "I use "+m[2], false); fs != nil {
				return fs
			}
		}
	}
	if m := namedProjectRe.FindStringSubmatch(span); m != nil {
		name := m[1] + m[2]
		if !notPersons()[name] && !knownTool(strings.ToLower(name)) {
			if tl, ok := lookupTool(strings.ToLower(m[4])); ok && !personalCategory()[tl.Categories[0]] {
				if fs := r.readAs(c, "we "+plainVerb(m[3])+" "+strings.ToLower(m[4]), false); fs != nil {
					return fs
				}
			}
		}
	}
	if strings.Contains(t, ", ") && strings.Count(t, ", ") == 1 {
		if cut := cutReasonClause(t); cut != t && len(strings.Fields(cut)) >= 2 {
			// "type hints everywhere, mypy strict is on in CI": the wish,
			// then why it holds
			rw := analyze(rawClause{text: cut})
			rw.span, rw.correction, rw.directive, rw.standing = cut, c.correction, c.directive, c.standing
			if fs := r.extractClause(&rw); len(fs) > 0 {
				*c = rw
				return fs
			}
		}
	}
	if m := breedCalled().FindStringSubmatch(t); m != nil {
		// "I have a border collie called Juno": a breed names the kind
		kind := "dog"
		if catBreed().MatchString(m[1]) {
			kind = "cat"
		}
		if fs := r.readAs(c, "i have a "+kind+" called "+m[2], false); fs != nil {
			return fs
		}
	}
	if m := houseScopedSlot().FindStringSubmatch(t); m != nil {
		// "the tech lead on this repo is Aurelio": the house named as the
		// slot's scope
		if fs := r.readAs(c, "our "+m[1]+" is "+m[2], false); fs != nil {
			return fs
		}
	}
	if m := sinceDoing().FindStringIndex(t); m != nil && m[0] > 0 {
		// "i'm on SGT now since moving to the singapore office": the
		// statement without its cause
		if fs := r.readAs(c, t[:m[0]], c.change); fs != nil {
			return fs
		}
	}
	if m := leadOn.FindStringSubmatch(c.span); m != nil && !notPersons()[m[1]] {
		// "Hideo is tech lead on the renderer"
		if fs := r.readAs(c, "our "+strings.ToLower(m[2])+" is "+m[1], false); fs != nil {
			return fs
		}
	}
	if m := personBased.FindStringSubmatch(span); m != nil && r.person != "" && cityLike(m[1]) && !knownTool(strings.ToLower(m[1])) {
		return []Fact{{Subject: r.person, Predicate: "lives_in", Object: strings.ToLower(m[1]), shownSubject: upperWords(r.person), shownObject: m[1]}}
	}
	if m := talksTo().FindStringSubmatch(t); m != nil {
		// "The app talks to Postgres through Prisma."
		var out []Fact
		for _, w := range []string{m[1], m[2]} {
			if tl, ok := lookupTool(w); ok && !personalCategory()[tl.Categories[0]] {
				out = append(out, Fact{Subject: SubjectProject, Predicate: categoryPredicate()[tl.Categories[0]], Object: tl.Name, shownObject: tl.Display})
			}
		}
		if out != nil {
			return out
		}
	}
	if m := envMoved().FindStringSubmatch(t); m != nil {
		// "staging moved from Heroku to Render": where an environment is
		// hosted
		_, ok1 := lookupTool(m[1])
		_, ok2 := lookupTool(m[2])
		if ok1 && ok2 {
			if fs := r.readAs(c, "we moved hosting from "+m[1]+" to "+m[2], true); fs != nil {
				return fs
			}
		}
	}
	if m := doesBoth().FindStringSubmatch(t); m != nil {
		// "Ditched eslint + prettier, Biome does both now": the new tool
		// takes the slot of each one given up
		if tl, ok := lookupTool(m[1]); ok {
			var out []Fact
			for _, g := range r.facts {
				if g.Kind != KindFact || !g.Negated {
					continue
				}
				if old, ok := lookupTool(g.Object); ok && old.Name != tl.Name && fillsSlot(tl, g.Predicate) {
					out = append(out, Fact{Subject: g.Subject, Predicate: g.Predicate, Object: tl.Name, Replaces: g.Object, shownObject: tl.Display})
				}
			}
			if out != nil {
				return out
			}
		}
	}
	if m := toolIsVersion().FindStringSubmatch(t); m != nil {
		// "Ruby is 3.2.2 on this repo": a language's or runtime's version
		if tl, ok := lookupTool(m[1]); ok {
			if p, ok := relations.VersionPredicate(tl.Name); ok {
				return []Fact{{Subject: SubjectProject, Predicate: p, Object: m[2]}}
			}
		}
	}
	if m := kindNounIs().FindStringSubmatch(t); m != nil {
		// "the build tool is Vite": the speaker names the kind, the
		// taxonomy files the tool under another
		if rel, ok := relations.ByNoun(m[1]); ok && rel.Category != "" {
			if tl, ok := lookupTool(m[2]); ok {
				return []Fact{{Subject: SubjectProject, Predicate: rel.Predicate, Object: tl.Name, shownObject: tl.Display}}
			}
		}
	}
	if m := envAtRe().FindStringSubmatch(t); m != nil {
		env := m[1]
		if env == "production" {
			env = "prod"
		}
		return []Fact{{Subject: SubjectProject, Predicate: strings.ReplaceAll(env, " ", "_") + "_url_is", Object: m[2]}}
	}
	if m := appPort().FindStringSubmatch(strings.TrimRight(strings.ToLower(span), ".!")); m != nil {
		// "the app runs on port 3000" (its working text reads "we are on
		// port 3000")
		return []Fact{{Subject: SubjectProject, Predicate: "port_is", Object: m[1]}}
	}
	if m := listenerPortRe().FindStringSubmatch(t); m != nil {
		return []Fact{{Subject: SubjectProject, Predicate: listenerSlot(m[1]), Object: m[2]}}
	}
	if strings.HasPrefix(t, "i ") {
		if m := commuteByRe().FindStringSubmatch(t); m != nil {
			how := "by " + m[1]
			if m[1] == "foot" {
				how = "on foot"
			}
			return []Fact{{Subject: SubjectUser, Predicate: "commute_is", Object: how}}
		}
		if m := commuteVerbRe().FindStringSubmatch(t); m != nil {
			how := map[string]string{"bike": "by bike", "cycle": "by bike", "walk": "on foot", "drive": "by car", "run": "on foot"}[m[1]]
			if m[2] != "" {
				how = "by " + m[2]
			}
			return []Fact{{Subject: SubjectUser, Predicate: "commute_is", Object: how}}
		}
		if m := bestTimeRe().FindStringSubmatch(t); m != nil {
			what := m[1]
			if what == "" || what == "work" {
				what = "working"
			}
			return []Fact{{Subject: SubjectUser, Predicate: "prefers", Object: what + " " + m[2]}}
		}
	}
	return nil
}

// needs13 says whether a clause's working text holds a change of
// mend13.go whose old value only the conversation names: "the MariaDB
// swap is done", "since the 1st we're a Gradle shop", "now I live in
// Bergen", "fullstack really".
func needs13(text string) bool {
	if m := swapDoneRe().FindStringSubmatch(text); m != nil {
		if _, ok := lookupTool(m[1]); ok {
			return true
		}
	}
	if m := modifierRepair().FindStringSubmatch(text); m != nil && m[2] != "" && roleModifiers[m[1]] {
		return true
	}
	return sinceDate().MatchString(text) || nowFirst().MatchString(text)
}

// beforeQuestion says whether the text goes on, after span, to ask or
// request something: "in Zed right now, how do I split the pane?".
func (r *reading) beforeQuestion(span string) bool {
	at := strings.Index(r.text, span)
	if at < 0 {
		return false
	}
	rest := strings.TrimSpace(r.text[at+len(span):])
	rest = strings.TrimLeft(rest, ",;:-—– ")
	if rest == "" {
		return false
	}
	return strings.Contains(rest, "?") || requestOpen().MatchString(strings.ToLower(rest))
}

// requestOpen opens a request or a question asked without a mark.
var requestOpen = lazyRegexp(`^(?:how|what|why|where|which|can you|could you|would you|is there|help|please|pls|show me|tell me|explain)\b`)

// workplaceTool says whether "in/using/on X" names where the person works:
// an editor or a shell one is in, an OS one is on.
func workplaceTool(t *tool, prep string) bool {
	for _, cat := range t.Categories {
		switch cat {
		case "editor", "shell":
			if prep != "on" {
				return true
			}
		case "os":
			if prep != "in" {
				return true
			}
		}
	}
	return false
}

// plainVerb is the verb of a named project's sentence said of "we".
func plainVerb(v string) string {
	switch v {
	case "uses":
		return "use"
	case "is on":
		return "are on"
	case "is written in":
		return "write it in"
	}
	w, rest, _ := strings.Cut(v, " ")
	return strings.TrimSuffix(w, "s") + " " + rest
}

// listenerSlot is the port slot of an auxiliary listener.
func listenerSlot(noun string) string {
	switch noun {
	case "prometheus":
		noun = "metrics"
	case "healthcheck", "health check":
		noun = "health"
	case "websockets", "ws":
		noun = "websocket"
	case "debugger", "pprof", "profiler":
		noun = "debug"
	}
	return strings.ReplaceAll(noun, " ", "_") + "_port_is"
}
