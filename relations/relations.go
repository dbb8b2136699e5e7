package relations

import (
	"slices"
	"strings"
	"sync"
)

// Subjects a relation is said of.
const (
	User    = "user"
	Project = "project"
)

// Relation is one kind of claim credence reads from what people say, states
// as a sentence, and recalls when a prompt needs it.
type Relation struct {
	// Predicate is the snake_case name the belief's triple carries.
	Predicate string
	// Of lists the subjects it is said of: User, Project or both.
	Of []string
	// Exclusive marks cardinality one: a new value competes with the old
	// (DESIGN §3, exclusivity).
	Exclusive bool
	// Category, when set, is the tool category whose tools are its
	// values (tools.go); "" for open values (a city, a name).
	Category string
	// Nouns name the slot: the extractor reads "my X is Y", "our X is Y"
	// and "as our X" with them, and recall treats them as the strongest
	// sign that a prompt asks about the slot.
	Nouns []string
	// Ambiguous are nouns the extractor reads ("my manager is Priya", "our
	// PM is Grace") that mean the slot in a prompt only after a
	// possessive: "a connection pool manager class" and "2 pm" do not ask
	// about anyone. Recall takes "my X" and "our X" as cues for them.
	Ambiguous []string
	// Cues are further words and phrases that show a prompt asks about the
	// slot or needs it: the verbs of the question ("live", "reside") and
	// the tasks that depend on it ("install", "dependencies"). A strong
	// cue alone is enough; weak ones (Weak) need company.
	Cues []string
	Weak []string
	// Acts are the verbs whose imperative asks for the work the slot's
	// tool does: "format the whole src folder" needs the formatter, "build
	// only what changed" the build tool, though neither names a tool. An
	// act counts as a cue only as the request's own verb (mainVerb), not
	// anywhere in the prompt ("the build is slow" is not a task).
	Acts []string
	// Template renders a statement: {S} is the subject ("User",
	// "Project"), {O} the object as displayed, {their} the subject's
	// possessive ("their", "its"), {a} the article the object takes ("a",
	// "an").
	Template string
	// Family groups relations that answer one question: node_version_is,
	// go_version_is and python_version_is are all FamilyLanguageVersion.
	Family string
	// VersionOf names the tool (tools.go) whose version the relation
	// holds: "node" for node_version_is.
	VersionOf string
	// Fallback names the relation whose current value answers for this
	// one when it has none: where someone lives for their timezone.
	Fallback string
	// Personal marks a tool relation that is about the person's own
	// machine wherever they say it (their editor, shell, OS): said of
	// the person, it holds in every project.
	Personal bool
	// States are the words in which a person states the slot's value in
	// passing, without its noun: "I'm vegetarian", "I'm colorblind",
	// "I only work 6am–1pm". A message that holds one speaks of the slot:
	// recall keeps it when a prompt needs the slot, though nothing was
	// read from it. (A prompt needs the slot by its cues: "cat" states a
	// pet in "our cat walks on my keyboard" and asks for none in "cat the
	// log file".)
	States []string
	// Shape is a pattern (lowercased text) of the values the slot takes
	// when they are recognisable without its words: an AWS region
	// ("eu-central-1"), a port after "on" or "localhost:", a language
	// and its version ("Python 3.10", "OTP 26"). A message that holds
	// one states the slot's value though nothing was read from it.
	Shape string
	// ShapeWords are words a message of the Shape holds, for finding it
	// in the full-text index ("west" for "eu-west-1").
	ShapeWords []string
}

// FamilyLanguageVersion is the family of the relations that hold the
// version of a language or runtime.
const FamilyLanguageVersion = "language_version"

// Said reports whether the relation can be said of subject.
func (r Relation) Said(subject string) bool { return slices.Contains(r.Of, subject) }

// Statement renders the relation's sentence for subject and the displayed
// object: "User lives in Lisbon", "Project uses pnpm as its package
// manager". A subject other than User or Project is shown as given, its
// first letter capitalised ("mary" → "Mary", "the API" → "The API").
func (r Relation) Statement(subject, object string) string {
	return fill(r.template(), subject, object)
}

// Negation renders the sentence that denies the relation: "User does not
// live in Lisbon", "User's name is not Jon".
func (r Relation) Negation(subject, object string) string {
	return fill(negate(r.template()), subject, object)
}

func (r Relation) template() string {
	if r.Template != "" {
		return r.Template
	}
	return "{S} " + strings.ReplaceAll(r.Predicate, "_", " ") + " {O}"
}

// fill puts a subject and a displayed object into a template.
func fill(t, subject, object string) string {
	s, their := "User", "their"
	switch subject {
	case User:
	case Project:
		s, their = "Project", "its"
	default:
		s, their = displayName(subject), "their"
	}
	is := "is"
	if plural(subject) {
		is = "are"
		t = strings.Replace(t, "{S}'s ", "{S}' ", 1) // "User's cats' names", not "cats's"
	}
	return strings.NewReplacer("{S}", s, "{O}", object, "{their}", their, "{a}", article(object), "{is}", is).Replace(t)
}

// plural guesses whether a named subject is plural: a lowercase noun
// ending in s ("migrations"), not a name ("James") or "the API".
func plural(subject string) bool {
	if subject == "" || subject == User || subject == Project {
		return false
	}
	last := subject[strings.LastIndexByte(subject, ' ')+1:]
	if last == "" || last[0] < 'a' || last[0] > 'z' {
		return false
	}
	// ("status", "analysis", "redis" are one thing; "schemas" are many)
	return strings.HasSuffix(last, "s") && !strings.HasSuffix(last, "ss") && !strings.HasSuffix(last, "us") &&
		!strings.HasSuffix(last, "is")
}

// article is the indefinite article a displayed word takes, by its
// sound: "an SRE", "an MLE" (an initialism is said letter by letter), "a
// UX designer", "a unix admin", "an hourly contractor".
func article(word string) string {
	first, _, _ := strings.Cut(word, " ")
	first = strings.TrimRight(first, ",.;:")
	if first == "" {
		return "a"
	}
	if len(first) > 1 && strings.ToUpper(first) == first && strings.ToLower(first) != first {
		// the letter's name: eff, aitch, ell, em, en, ar, ess, ex
		if strings.ContainsRune("AEFHILMNORSX", rune(first[0])) {
			return "an"
		}
		return "a"
	}
	lower := strings.ToLower(first)
	for _, p := range []string{"uni", "use", "usu", "uti", "eu", "one", "once"} {
		if strings.HasPrefix(lower, p) {
			return "a" // "a unix admin", "a one-person team"
		}
	}
	if strings.HasPrefix(lower, "hour") || strings.HasPrefix(lower, "honest") {
		return "an"
	}
	if strings.ContainsRune("aeiou", rune(lower[0])) {
		return "an"
	}
	return "a"
}

// displayName capitalises a lowercased name for a sentence: "mary" →
// "Mary", "user's cat" → "User's cat".
func displayName(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

var (
	userOnly    = []string{User}
	projectOnly = []string{Project}
	either      = []string{User, Project}
)

// table is every relation credence knows by name. Tool relations take
// their values from the taxonomy (tools.go); the rest are open.
var table = []Relation{
	// About the person.
	{Predicate: "lives_in", Of: userOnly, Exclusive: true,
		Nouns:    []string{"location", "city", "home city", "current city"},
		Cues:     []string{"where i am", "where i'm at", "where i'm based", "local meetups", "meetups near", "events near", "meetups around", "i live", "we live", "lives", "living", "reside", "residing", "based", "where am i", "moved", "relocated", "hometown now", "near me", "close to me", "around me", "my area", "my city", "around here", "near here", "where i live", "from where i live", "in town", "new flat", "new apartment", "new place", "new house", "settled into", "settled in", "sunset", "sunrise", "sun set", "sun rise", "sun go down", "sun come up", "for a hike", "go hiking", "hiking trail", "hiking spot", "hiking spots"},
		Weak:     []string{"meetup", "meetups", "events", "home", "weather", "local", "nearby", "city", "country", "commute", "hike", "coworking", "weekend", "outdoors", "trail", "beach", "park"},
		Template: "{S} lives in {O}"},
	{Predicate: "is_from", Of: userOnly, Exclusive: true,
		Nouns:    []string{"hometown"},
		Cues:     []string{"where am i from", "grew up", "born in", "hometown"},
		Template: "{S} is from {O}"},
	{Predicate: "name_is", Of: either, Exclusive: true,
		Nouns:     []string{"name", "first name", "full name"},
		Ambiguous: []string{"name"},
		Cues: []string{"author field", "author name", "authors field", "commit author", "author line", "git author", "git config", "git identity", "co-authored-by", "user.name", "from me", "on my behalf", "in my name", "sign it", "my name", "who am i", "call me", "what am i called", "what's my name", "spell my name",
			// what the project or a part of it is called
			"repo called", "project called", "service called", "repo name", "project name", "name of the repo", "name of the project",
			"repo's name", "project's name", "signed by me", "sign as me", "my signature"},
		Weak:     []string{"hello", "first day", "sign", "signature", "sign off", "greet", "address me", "name", "author", "headline"},
		Acts:     []string{"sign", "greet"},
		Template: "{S}'s name is {O}"},
	{Predicate: "works_at", Of: userOnly, Exclusive: true,
		Nouns:    []string{"employer", "company"},
		Cues:     []string{"first day at", "first week at", "first month at", "current position", "current job", "current employer", "where do i work", "work at", "work for", "employer", "my company", "my job", "linkedin", "who do i work for", "started at", "joined", "new job", "my employer", "how long have i been", "how long have i worked", "when did i start", "when did i join", "my tenure", "work anniversary", "current company", "my new team", "new team's", "my new job", "new job", "my new company", "introduce myself", "intro post"},
		Weak:     []string{"work", "office", "company", "colleagues", "coworkers", "headline", "resume", "cv"},
		Template: "{S} works at {O}"},
	{Predicate: "manager_is", Of: userOnly, Exclusive: true,
		Nouns:     []string{"manager", "boss", "supervisor", "line manager"},
		Ambiguous: []string{"manager"},
		Cues:      []string{"status update", "status updates", "status report", "weekly update", "weekly report", "week's update", "weekly status", "address it to", "send it to", "who do i send", "who should i send", "who do i report", "time off", "my time off", "pto", "vacation days", "leave request", "day off", "days off", "sick leave", "approve my", "boss", "supervisor", "report to", "reports to", "reporting to", "skip level", "my manager", "my lead", "escalate", "friday off", "monday off", "tuesday off", "wednesday off", "thursday off", "afternoon off", "morning off", "the day off", "a day off"},
		Weak:      []string{"approve", "approval", "vacation", "1:1", "one-on-one", "one on one", "performance review", "promotion", "lead"},
		Template:  "{S}'s manager is {O}"},
	{Predicate: "timezone_is", Of: userOnly, Exclusive: true,
		Nouns:    []string{"timezone", "time zone", "tz"},
		Cues:     []string{"time slot", "find a slot", "find a time", "a slot that", "overlap with", "works for both", "both our", "time that works", "good time for", "timezone", "time zone", "utc offset", "local time", "my time", "my clock", "on my clock", "my watch", "my morning", "my afternoon", "my evening", "time difference", "central time", "mountain time", "eastern time", "pacific time", "is that for me", "is that here", "is that in my", "that be for me"},
		Weak:     []string{"slot", "coworker", "colleague", "minute", "minutes", "meeting", "meetings", "schedule", "calendar", "time", "times", "o'clock", "am", "pm", "utc", "gmt", "tomorrow", "invite", "standup", "deadline", "what time", "call", "my local", "eastern", "pacific"},
		Template: "{S}'s timezone is {O}", Fallback: "lives_in"},
	{Predicate: "role_is", Of: userOnly, Exclusive: true,
		Nouns:     []string{"role", "job", "title", "job title", "position"},
		Ambiguous: []string{"job"},
		Cues:      []string{"current position", "current role", "my role", "my job", "my title", "what do i do", "my position", "linkedin", "headline", "career", "my career", "career path", "grow in my", "my skills", "upskill", "someone like me", "my background", "at my level", "given my experience", "performance review", "self-assessment", "self assessment", "self-review", "self review", "annual review", "year-end review", "promotion packet", "promo packet"},
		Weak:      []string{"resume", "cv"},
		Template:  "{S} is {a} {O}"},
	{Predicate: "team_is", Of: either, Exclusive: true,
		Nouns:    []string{"team"},
		Cues:     []string{"my team", "which team", "our team"},
		Template: "{S}'s team is {O}"},
	{Predicate: "age_is", Of: userOnly, Exclusive: true, Nouns: []string{"age"},
		Cues: []string{"how old am i", "my age"}, Template: "{S} is {O} years old"},
	{Predicate: "email_is", Of: userOnly, Exclusive: true, Nouns: []string{"email", "email address"}, Ambiguous: []string{"email", "email address"},
		Cues: []string{"my email", "author email", "git author", "commit email", "git config", "git identity"}, Template: "{S}'s email is {O}"},
	{Predicate: "github_handle_is", Of: userOnly, Exclusive: true,
		Nouns: []string{"github", "github handle", "github username"},
		Cues:  []string{"github handle", "github username", "my github", "code owner", "code owners", "codeowners", "assign me", "tag me", "mention me", "add me as"}, Template: "{S}'s GitHub handle is {O}"},
	{Predicate: "handle_is", Of: userOnly, Exclusive: true, Nouns: []string{"username", "handle"}, Ambiguous: []string{"handle"},
		Cues: []string{"my username", "my handle"}, Template: "{S}'s username is {O}"},
	{Predicate: "pronouns_are", Of: userOnly, Exclusive: true, Nouns: []string{"pronouns"},
		Cues: []string{"pronouns", "bio", "about me", "refer to me", "introduce me", "describe me"}, Template: "{S}'s pronouns are {O}"},
	{Predicate: "birthday_is", Of: userOnly, Exclusive: true, Nouns: []string{"birthday"},
		Cues: []string{"birthday", "born on"}, Template: "{S}'s birthday is {O}"},
	{Predicate: "native_language_is", Of: userOnly, Exclusive: true,
		Nouns:    []string{"native language", "first language", "mother tongue"},
		Cues:     []string{"native language", "mother tongue", "first language", "languages i speak", "languages do i speak", "fluent", "fluently", "my language"},
		States:   []string{"native", "natively", "mother tongue", "first language", "native languages", "native speaker", "i speak"},
		Template: "{S}'s native language is {O}"},

	// What shapes an answer for the person without being asked about:
	// what they eat, what they can see or read easily, when they work,
	// their pets, hobbies and car. People say these in passing ("I'm
	// vegetarian", "I'm colorblind (deuteranopia)"), and a task that
	// depends on them rarely names them ("suggest a dinner", "pick colors
	// for the chart", "when should I schedule the demo so I'm around?").
	{Predicate: "diet_is", Of: userOnly,
		Nouns:    []string{"diet", "dietary restrictions", "dietary restriction"},
		Cues:     []string{"recipe", "recipes", "dinner", "dinners", "lunch", "breakfast", "meal", "meals", "meal plan", "cook", "cooking", "restaurant", "restaurants", "groceries", "grocery list", "what to eat", "snacks", "catering", "bake", "baking", "treats", "order at", "eat out", "eating out", "party food", "takeaway"},
		Weak:     []string{"eat", "eating", "food", "menu", "order in", "takeout"},
		States:   []string{"vegetarian", "vegan", "pescatarian", "lactose", "gluten", "celiac", "coeliac", "allergic", "allergy", "allergies", "halal", "kosher", "keto", "don't eat", "do not eat", "no meat", "low-fodmap", "fodmap", "ibs", "intolerant", "intolerance", "peanut", "nut allergy"},
		Template: "{S}'s diet is {O}"},
	{Predicate: "accessibility_is", Of: userOnly,
		Nouns:    []string{"accessibility needs", "vision"},
		Cues:     []string{"color scheme", "colour scheme", "color palette", "colour palette", "palette", "colors", "colours", "contrast", "easy to tell apart", "tell apart", "readable", "legible", "font size", "accessible", "accessibility"},
		Weak:     []string{"chart", "charts", "red", "green", "theme", "font", "diff", "highlight"},
		States:   []string{"colorblind", "colourblind", "color blind", "colour blind", "color-blind", "colour-blind", "deuteranopia", "protanopia", "tritanopia", "dyslexia", "dyslexic", "low vision", "screen reader", "hard of hearing", "visually impaired"},
		Template: "{S}'s accessibility needs are {O}"},
	{Predicate: "work_hours_are", Of: userOnly,
		Nouns:    []string{"working hours", "work hours", "hours"},
		Cues:     []string{"i'm around", "i'm still around", "be around", "i'm actually around", "am i around", "still online", "i'm online", "i'm available", "my availability", "when i'm free", "page me", "working hours", "work hours", "deep work", "focus time", "block out", "focus block", "find a time", "find time", "fits my days", "fit my days", "fits my schedule", "fit my schedule", "my week"},
		Weak:     []string{"schedule", "when should", "meeting", "demo", "later", "tonight", "morning", "afternoon", "evening"},
		States:   []string{"online from", "only work", "i work from", "usually online", "my hours", "pick up the kids", "school pickup", "pickup", "offline after", "log off", "start early", "finish at", "i'm off at", "i'm offline", "best coding", "early mornings", "before the kids", "most productive", "night owl", "early bird", "late nights", "night shift", "night shifts", "on nights", "day shift", "dont put stuff", "don't put stuff", "don't book", "dont book"},
		Template: "{S}'s working hours are {O}"},
	{Predicate: "health_is", Of: userOnly,
		Nouns:    []string{"health", "health condition", "medical condition"},
		Cues:     []string{"snack", "snacks", "a snack", "workout", "my health", "blood sugar", "insulin", "carbs", "medication", "what mouse", "buy a mouse", "ergonomic", "office chair", "desk setup", "standing desk", "workout routine", "exercise routine", "training routine"},
		Weak:     []string{"meal", "meals", "food", "eat", "run", "running", "trip"},
		States:   []string{"diabetic", "diabetes", "asthma", "asthmatic", "epilepsy", "epileptic", "migraines", "chronic", "adhd", "celiac", "coeliac", "rsi", "my wrist", "my back", "my knee", "tendonitis", "carpal tunnel", "pregnant"},
		Template: "{S}'s health is {O}"},
	{Predicate: "trip_is", Of: userOnly,
		Nouns:    []string{"trip", "travel plans"},
		Cues:     []string{"packing list", "pack for", "what to pack", "itinerary", "our trip", "my trip", "the trip", "travel plans", "before my trip", "before we leave", "sightseeing", "travel insurance", "jet lag"},
		Weak:     []string{"travel", "vacation", "holiday", "flight", "abroad", "visit"},
		States:   []string{"going to", "flying to", "heading to", "trip to", "visiting"},
		Template: "{S}'s trip is {O}"},
	{Predicate: "is_learning", Of: userOnly,
		Nouns:    []string{"studies", "learning"},
		Cues:     []string{"flashcards", "flash cards", "study session", "study plan", "vocab", "practice sentences", "grammar drills", "my studies", "what i'm learning", "language exchange", "conjugation", "conjugations"},
		Weak:     []string{"study", "practice", "lesson", "lessons", "quiz", "learn"},
		States:   []string{"i'm learning", "i am learning", "learning"},
		Template: "{S} is learning {O}"},
	{Predicate: "experiment_tracker_is", Of: either, Exclusive: true,
		Nouns:    []string{"experiment tracker", "experiment tracking", "run tracking"},
		Cues:     []string{"training run", "training runs", "confusion matrix", "each epoch", "every epoch", "per epoch", "log metrics", "log the metrics", "learning curve", "loss curve", "hyperparameter sweep", "experiment tracking", "track the run", "compare runs"},
		Weak:     []string{"epoch", "experiment", "experiments", "metrics", "training", "log"},
		Template: "{S}'s experiment tracker is {O}"},
	{Predicate: "base_model_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"base model", "foundation model", "pretrained model"},
		Cues:     []string{"fine-tune", "fine tune", "finetune", "fine-tuning", "lora", "qlora", "tokenizer", "the base model", "model weights"},
		Weak:     []string{"model", "training", "inference", "weights", "eval"},
		Template: "{S}'s base model is {O}"},
	{Predicate: "flight_is", Of: userOnly,
		Nouns:    []string{"flight"},
		Cues:     []string{"my flight", "the flight", "before i fly", "boarding", "departure", "before my trip", "before we leave", "airport"},
		Weak:     []string{"trip", "travel", "leave"},
		Template: "{S}'s flight is {O}"},
	{Predicate: "target_chip_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"target chip", "mcu", "microcontroller", "target board"},
		Cues:     []string{"linker script", "bootloader", "memory map", "flash layout", "firmware", "peripheral", "peripherals", "clock config", "isr", "interrupt handler", "dma", "gpio", "uart", "spi", "i2c"},
		Weak:     []string{"flash", "ram", "board", "chip", "interrupt"},
		Template: "{S}'s target chip is {O}"},
	{Predicate: "minimum_deployment_target_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"minimum deployment target", "deployment target", "min target", "minimum target", "min sdk", "minsdk", "minsdkversion", "minimum os version", "minimum ios version"},
		Cues:     []string{"#available", "@available", "available checks", "availability check", "availability checks", "older ios", "older android", "api level", "back-deploy", "backport to ios"},
		Template: "{S}'s minimum deployment target is {O}"},
	{Predicate: "gpu_is", Of: either,
		Nouns:      []string{"gpu", "gpus", "graphics card", "accelerator"},
		Cues:       []string{"context length", "batch size", "fits in memory", "fit in memory", "vram", "gpu memory", "max that fits", "mixed precision", "bf16", "fp16", "quantize", "quantized", "cuda"},
		Weak:       []string{"train", "training"},
		Shape:      `\b(?:a100|h100|h200|v100|a10g?|l40s?|rtx ?\d{4}|[34]090|mi300x?|tpu ?v\d)\b`,
		ShapeWords: []string{"a100", "h100", "h200", "v100", "a10", "a10g", "l40", "l40s", "rtx", "4090", "3090", "mi300", "mi300x", "tpu"},
		Template:   "{S}'s GPU is {O}"},
	{Predicate: "pet_is", Of: userOnly,
		Nouns: []string{"pet", "pets"},
		Cues:  []string{"my pet", "my pets", "my cat", "my dog", "our cat", "our dog"},
		States: []string{"my cat", "my dog", "our cat", "our dog", "my pet", "my puppy", "my kitten", "my rabbit", "my parrot",
			// a breed or a kind said in place of "dog" or "cat"
			"my beagle", "our beagle", "my labrador", "our labrador", "my lab", "our lab", "my retriever", "our retriever", "my terrier", "our terrier", "my poodle", "our poodle", "my corgi", "our corgi", "my husky", "our husky", "my spaniel", "our spaniel", "my collie", "our collie", "my greyhound", "our greyhound", "my dachshund", "our dachshund", "my pug", "our pug", "my bulldog", "our bulldog", "my whippet", "our whippet", "my schnauzer", "our schnauzer", "my boxer", "our boxer", "my chihuahua", "our chihuahua", "my shiba", "our shiba", "my doodle", "our doodle", "my labradoodle", "our labradoodle", "my goldendoodle", "our goldendoodle", "my maine coon", "our maine coon", "my siamese", "our siamese", "my ragdoll", "our ragdoll", "my tabby", "our tabby", "my hamster", "our hamster", "my guinea pig", "our guinea pig", "my tortoise", "our tortoise", "my budgie", "our budgie"},
		Template: "{S}'s pet is {O}"},
	{Predicate: "hobby_is", Of: userOnly,
		Nouns:    []string{"hobby", "hobbies"},
		Cues:     []string{"side project", "side projects", "outside work", "after work", "my hobby", "my hobbies", "free time", "spare time", "training plan", "for fun", "my instrument", "practice schedule", "practice routine", "practice plan", "practise schedule", "my band", "a gig", "rehearsal", "my guild"},
		States:   []string{"in my free time", "in my spare time", "my hobby", "for fun i", "on weekends i", "i go climbing", "i climb", "i go bouldering", "i run on", "i swim"},
		Template: "{S}'s hobby is {O}"},
	{Predicate: "car_is", Of: userOnly,
		Nouns:    []string{"car"},
		Cues:     []string{"my car", "my model", "my bike", "my vehicle", "my commute", "drive to work", "parking", "charge my", "my tires", "my tyres", "rotate my tires", "rotate the tires", "tire pressure", "tyre pressure", "oil change", "car insurance", "car service"},
		Weak:     []string{"commute", "to the office"},
		States:   []string{"i drive", "my car", "i commute", "commute by", "by train", "by bike", "cycle to work", "take the train", "take the bus", "got a used", "sold the", "i'm driving a", "drive an", "drive a"},
		Template: "{S}'s car is {O}"},
	{Predicate: "keyboard_layout_is", Of: userOnly, Exclusive: true, Nouns: []string{"keyboard layout"},
		Cues: []string{"keyboard layout", "keyboard", "shortcuts", "keyboard shortcuts", "keybindings", "key bindings", "typing speed", "home row", "hotkeys"}, Template: "{S}'s keyboard layout is {O}"},

	// About the project (some also of the person).
	{Predicate: "default_branch_is", Of: either, Exclusive: true,
		Nouns:    []string{"default branch", "main branch"},
		Cues:     []string{"default branch", "main branch", "which branch", "what branch", "base branch", "push to main", "push to master", "target branch", "open a pr", "open the pr", "open a pull request", "pr against", "merge into", "master", "trunk"},
		Weak:     []string{"branch", "merge", "rebase", "pull request", "pr", "main", "master", "trunk"},
		Template: "{S}'s default branch is {O}"},
	{Predicate: "deploy_branch_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"deploy branch", "release branch", "production branch", "deployment branch"},
		Cues:     []string{"deploy from", "deploy branch", "release branch", "production branch", "which branch", "what branch", "merged to", "get it live", "gets live", "get live", "get to production"},
		Weak:     []string{"branch", "deploy", "release", "ship", "hotfix"},
		Template: "{S} deploys from the {O} branch"},
	{Predicate: "indentation_is", Of: either, Exclusive: true, Nouns: []string{"indentation", "indent"},
		Cues: []string{"indentation", "indent", "tabs or spaces", "editorconfig"}, Weak: []string{"tabs", "spaces", "format"},
		Template: "{S} indents with {O}"},
	{Predicate: "line_length_is", Of: either, Exclusive: true, Nouns: []string{"line length", "max line length"},
		Cues: []string{"line length", "line width", "column limit", "long lines", "too long", "line too long"}, Weak: []string{"wrap", "long", "reformat", "format"},
		Template: "{S}'s line length is {O}"},
	{Predicate: "node_version_is", Of: either, Exclusive: true, Nouns: []string{"node version"},
		Cues: []string{"node version", "which node", "version of node", "nvm", "nvmrc"}, Weak: []string{"version", "upgrade", "node"},
		Template: "{S} uses Node.js {O}", Family: FamilyLanguageVersion, VersionOf: "node"},
	{Predicate: "go_version_is", Of: either, Exclusive: true, Nouns: []string{"go version"},
		Cues: []string{"go version", "which go", "version of go", "go.mod"}, Weak: []string{"version", "upgrade"},
		Template: "{S} uses Go {O}", Family: FamilyLanguageVersion, VersionOf: "go"},
	{Predicate: "python_version_is", Of: either, Exclusive: true, Nouns: []string{"python version"},
		Cues: []string{"python version", "which python", "version of python", "pyenv", "venv", "virtualenv", ".python-version"}, Weak: []string{"version", "upgrade", "python", "matrix"},
		Template: "{S} uses Python {O}", Family: FamilyLanguageVersion, VersionOf: "python"},
	{Predicate: "port_is", Of: projectOnly, Exclusive: false, Nouns: []string{"port"}, Ambiguous: []string{"port"},
		Cues: []string{"what url", "which url", "url do i open", "open in my browser", "see the app", "hit it locally", "curl localhost", "baseurl", "base url", "base_url", "local url", "connection refused", "econnrefused", "can't connect", "cannot connect", "could not connect", "which port", "what port", "port number", "the app's port", "dev port", "local port", "port does", "port is", "ports", "listen on", "listens on", "localhost", "in the browser", "open the app", "database_url", "connection string", "dev server", "health check", "curl the", "curl it"}, Weak: []string{"locally", "hit", "url", "endpoint", "curl", "server", "browser", "local"},
		Shape:    `\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0):\d{2,5}\b|\b(?:port|on|serves on|listens on|runs on) :?\d{4,5}\b`,
		Template: "{S} listens on port {O}"},

	// The people of a project and where it talks.
	{Predicate: "product_manager_is", Of: projectOnly, Exclusive: true,
		Nouns:     []string{"product manager", "pm", "product owner", "project manager"},
		Ambiguous: []string{"pm"},
		Cues:      []string{"product manager", "product owner", "project manager", "the pm"},
		Weak:      []string{"roadmap", "requirements", "spec", "priorities", "prioritize"},
		Template:  "{S}'s product manager is {O}"},
	{Predicate: "channel_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"slack channel", "team channel", "channel"},
		Cues:     []string{"slack channel", "our channel", "team channel", "the channel", "post in", "post to", "slack"},
		Weak:     []string{"announce", "post", "message", "notify"},
		Template: "{S}'s channel is {O}"},

	// Tools, one relation per category of the taxonomy.
	{Predicate: "uses_package_manager", Of: either, Exclusive: true, Category: CatPackageManager,
		Nouns:    []string{"package manager", "package management", "packages", "dependencies", "deps"},
		Cues:     []string{"package manager", "install the dependencies", "install dependencies", "dependency", "dependencies", "deps", "lockfile", "lock file", "node_modules", "package.json", "npx", "add a package", "install a package", "a library for", "a package for", "a lib for", "pull in a", "bring in a", "third-party library", "an sdk", "sdk for", "client library", "a client for", "something to talk to"},
		Weak:     []string{"install", "add", "package", "packages", "library", "module", "upgrade", "script", "scripts"},
		Acts:     []string{"install", "reinstall", "uninstall"},
		Template: "{S} uses {O} as {their} package manager"},
	{Predicate: "uses_runtime", Of: either, Exclusive: true, Category: CatRuntime,
		Nouns:    []string{"runtime", "js runtime", "javascript runtime"},
		Cues:     []string{"runtime", "which runtime"},
		Weak:     []string{"run", "server", "script", "version"},
		Template: "{S} runs on {O}"},
	{Predicate: "uses_language", Of: either, Category: CatLanguage,
		Nouns:    []string{"language", "programming language", "main language", "primary language"},
		Cues:     []string{"which language", "what language", "programming language", "written in"},
		Template: "{S} uses {O}"},
	{Predicate: "uses_test_runner", Of: either, Exclusive: true, Category: CatTestRunner,
		Nouns:    []string{"test runner", "testing", "tests", "unit tests", "test suite", "test framework", "testing framework"},
		Cues:     []string{"test runner", "run the tests", "run tests", "unit test", "unit tests", "test suite", "write a test", "write tests", "add a test", "add tests", "testing framework", "test framework", "coverage", "regress", "regression", "regressions", "stays fixed", "stay fixed", "doesn't come back", "never comes back", "doesn't break again", "make sure it works"},
		Weak:     []string{"test", "tests", "testing", "spec", "specs", "mock", "assert"},
		Acts:     []string{"test", "retest"},
		Template: "{S} uses {O} for tests"},
	{Predicate: "uses_e2e_framework", Of: either, Category: CatE2E,
		Nouns:    []string{"e2e tests", "e2e", "end-to-end tests", "e2e testing"},
		Cues:     []string{"e2e", "end-to-end", "end to end", "browser test", "browser tests"},
		Template: "{S} uses {O} for end-to-end tests"},
	{Predicate: "deploys_with", Of: either, Exclusive: true, Category: CatDeploy,
		Nouns:    []string{"deploys", "deployment", "deployments", "deploying", "hosting", "host", "deploy target", "deploy", "deployment target", "hosting provider", "hosting platform", "deployment platform", "deploy platform"},
		Cues:     []string{"get the hotfix out", "hotfix out", "get the fix out", "get this out", "push it out", "roll it back", "roll this back", "roll that back", "revert the release", "revert the deploy", "bad release", "bad deploy", "roll back", "rollback", "in production", "for production", "on production", "in prod", "for prod", "production environment", "prod environment", "another server", "more servers", "add a server", "new server", "deploy", "deploys", "deploying", "deployment", "hosting", "hosted", "host it", "where do we host", "go live", "to production", "to prod", "to staging", "ship", "closer to users", "closer to them", "closer to our users", "other regions", "multi-region", "at the edge", "get it live", "gets live", "get live", "get to production", "job spec", "jobspec", "preview environment", "preview environments", "preview deploy", "preview deploys", "preview env", "preview envs", "preview apps", "changes live", "get it live", "get them live", "get this live", "make it live", "live on prod", "out to prod", "cron job", "cron jobs", "scheduled job", "scheduled jobs", "scheduled task"},
		Weak:     []string{"environment variables", "env vars", "server", "servers", "cost", "roll it out", "hotfix", "release", "production", "prod", "staging", "launch", "rollout", "roll out"},
		Acts:     []string{"deploy", "redeploy", "ship", "release"},
		Template: "{S} deploys to {O}"},
	{Predicate: "uses_database", Of: either, Exclusive: true, Category: CatDatabase,
		Nouns:    []string{"database", "db", "main database", "primary database", "storage", "persistence", "datastore", "data store"},
		Cues:     []string{"select for update", "row lock", "row locks", "row-level lock", "deadlock", "deadlocks", "isolation level", "explain analyze", "vacuum", "back up", "backup", "backups", "restore from", "upsert", "upserts", "insert into", "sql query", "raw sql", "look at the data", "inspect the data", "browse the data", "query the data", "see the data", "poke at the data", "db shell", "database shell", "add an index", "an index on", "index on", "query plan", "soft-delete", "soft delete", "database", "db", "sql", "migration", "migrations", "schema", "query", "queries", "table", "tables", "database_url", "connection string", "raw rows", "the rows", "row counts"},
		Weak:     []string{"store", "persist", "index", "orm", "data", "save", "saves", "record", "records", "rows", "row", "counts"},
		Template: "{S} uses {O} as {their} database", Fallback: "uses_warehouse"},
	{Predicate: "uses_cache", Of: either, Category: CatCache,
		Nouns:     []string{"caching", "cache"},
		Ambiguous: []string{"cache"},
		Cues:      []string{"caching", "cached", "our cache", "the cache", "cache layer"},
		Weak:      []string{"cache"},
		Acts:      []string{"cache", "memoize"},
		Template:  "{S} uses {O} for caching"},
	{Predicate: "uses_ci", Of: either, Exclusive: true, Category: CatCI,
		Nouns:    []string{"ci", "ci/cd", "ci pipeline", "pipeline", "builds", "continuous integration"},
		Cues:     []string{"a step to run", "a step that runs", "ci step", "build step", "pipeline step", "step to the pipeline", "build agent", "build agents", "ci runner", "ci runners", "runner", "runners", "build machine", "build log", "build logs", "nightly job", "nightly build", "nightly run", "scheduled job", "scheduled workflow", "on every push", "on every commit", "on every pr", "between runs", "ci", "ci/cd", "pipeline", "workflow", "workflows", "continuous integration", "build server", "on every pull request", "on each pull request", "on each pr", "on every merge", "before every merge"},
		Weak:     []string{"nightly", "scheduled", "trigger", "triggering", "runs", "cron", "build", "builds", "job", "jobs", "green", "red", "check", "checks"},
		Template: "{S} uses {O} for CI"},
	{Predicate: "uses_editor", Of: either, Exclusive: true, Personal: true, Category: CatEditor,
		Nouns:    []string{"editor", "ide", "text editor"},
		Cues:     []string{"inlay hints", "inlay hint", "code actions", "hover docs", "rust-analyzer", "gopls", "pyright", "clangd", "tsserver", "my editor", "in my editor", "jump-to-definition", "jump to definition", "go to definition", "go-to-definition", "autocomplete", "autocompletion", "code completion", "format on save", "format-on-save", "language server", "lsp", "syntax highlighting", "snippets", "vim mode", "editor", "ide", "keybinding", "keybindings", "extension", "plugin", "plugins", "while i edit", "as i type", "inline errors", "inline type errors", "squiggles", "red underline", "red squiggly", "step through", "breakpoint", "breakpoints", "debugger", "attach a debugger"},
		Weak:     []string{"config", "settings", "open"},
		Template: "{S} uses {O} as {their} editor"},
	{Predicate: "uses_formatter", Of: either, Exclusive: true, Category: CatFormatter,
		Nouns:    []string{"formatter", "formatting", "code formatter"},
		Cues:     []string{"formatter", "formatting", "reformat", "format the code", "format this file", "format the file", "code style"},
		Weak:     []string{"pre-commit", "format", "style", "pretty", "whitespace", "indentation", "file", "files", "module", "code", "changes", "diff"},
		Acts:     []string{"format", "reformat", "prettify", "beautify"},
		Template: "{S} uses {O} to format code"},
	{Predicate: "uses_linter", Of: either, Category: CatLinter,
		Nouns:    []string{"linter", "linting"},
		Cues:     []string{"code style", "style check", "style checks", "check the style", "lint", "linter", "linting", "lint errors", "lint warnings", "unused variables", "unused imports", "unused code", "dead code", "static analysis"},
		Weak:     []string{"pre-commit", "warnings", "style", "check"},
		Acts:     []string{"lint"},
		Template: "{S} uses {O} for linting"},
	{Predicate: "uses_cloud", Of: either, Exclusive: true, Category: CatCloud,
		Nouns:    []string{"cloud", "cloud provider", "cloud platform"},
		Cues:     []string{"storage bucket", "object storage", "blob storage", "cloud", "cloud provider", "which cloud", "bucket", "iam", "spin up", "uploaded files", "store the uploads", "store the uploaded", "somewhere durable", "durable storage", "file storage"},
		Weak:     []string{"region", "account", "credentials", "cluster", "spin up", "provision", "infra", "infrastructure"},
		Template: "{S} runs on {O}"},
	{Predicate: "uses_framework", Of: either, Category: CatFramework,
		Nouns:    []string{"framework", "frontend framework", "web framework", "web layer", "api framework", "http framework", "server framework"},
		Cues:     []string{"framework", "which framework", "component", "components", "new page", "add a page", "a page for", "route", "routes", "controller", "controllers", "middleware", "screen", "screens", "player movement", "sprite", "sprites", "hitbox", "collision shape", "scene tree", "game loop", "physics body", "camera shake", "double jump", "coyote time", "player controller", "player gets hit", "take damage", "takes damage", "health bar", "enemy ai", "spawn point", "tilemap", "gameobject", "game object"},
		Weak:     []string{"page", "view", "views", "frontend", "backend", "endpoint", "endpoints", "handler"},
		Template: "{S} uses {O}"},
	{Predicate: "uses_bundler", Of: either, Exclusive: true, Category: CatBundler,
		Nouns:    []string{"bundler", "bundling"},
		Cues:     []string{"bundler", "bundle", "bundling", "dev server", "dev build", "slow to start", "takes forever to start"},
		Weak:     []string{"build", "assets", "hot reload"},
		Template: "{S} bundles with {O}"},
	{Predicate: "uses_shell", Of: either, Exclusive: true, Personal: true, Category: CatShell,
		Nouns:    []string{"shell"},
		Cues:     []string{"my path", "to path", "the path permanently", "path permanently", "$path", "rc file", "bashrc", "zshrc", "config.fish", "profile file", "login shell", "one-liner", "one liner", "oneliner", "shell command", "shell commands", "shell script", "command line", "in the terminal", "in my terminal", "bash script", "shell", "dotfiles", "alias", "aliases", "prompt theme", "shortcut so", "a shortcut for", "shortcut for the command", "my prompt", "shell prompt", "new terminal", "each command", "every command"},
		Weak:     []string{"command", "commands", "script", "loop", "pipe", "grep", "files", "folder", "directory", "dir", "terminal", "rc file", "path"},
		Template: "{S} uses {O} as {their} shell"},
	{Predicate: "uses_os", Of: either, Exclusive: true, Personal: true, Category: CatOS,
		Nouns:    []string{"os", "operating system", "machine", "laptop", "daily driver", "work laptop", "work machine", "computer"},
		Cues:     []string{"operating system", "my os", "my laptop", "my machine", "brew", "homebrew", "apt", "install on my", "install locally", "locally install", "my computer", "my box", "environment variable", "env var permanently", "install docker", "how do i install", "so it sticks", "permanently", "across reboots", "client tools", "cli tools", "command line tools", "command-line tools", "system package", "system packages", "tools for me", "install it for me", "on this machine", "set up my machine"},
		Weak:     []string{"laptop", "machine", "computer", "install", "locally", "command"},
		Template: "{S} uses {O}"},

	// The rest of the stack: one relation per category. Cues include
	// the tasks that depend on the slot ("add a cart store" needs the
	// state library, "publish an event" the queue); weak cues need
	// company.
	{Predicate: "uses_state_management", Of: either, Exclusive: true, Category: CatState,
		Nouns:    []string{"state management", "state", "state library", "state manager", "client state", "global state", "app state", "frontend state", "state store"},
		Cues:     []string{"shared state", "share the state", "share state", "state management", "global state", "client state", "app state", "store", "stores", "reducer", "reducers", "selector", "selectors", "slice", "atom", "atoms", "state library", "remember which", "keep track of which", "selected tab", "which tab", "doesn't update", "does not update", "not updating", "re-render", "rerender", "out of sync", "updates when", "update when", "updates whenever", "updates live", "badge count", "live count", "count that updates"},
		Weak:     []string{"shared between", "shared across", "in sync between", "state", "cart", "action", "actions", "context", "hook", "hooks"},
		Template: "{S} uses {O} for state management"},
	{Predicate: "uses_styling", Of: either, Exclusive: true, Category: CatStyling,
		Nouns:    []string{"styling", "styles", "css", "css framework", "styling library", "component library", "ui library", "ui kit", "design system"},
		Cues:     []string{"on hover", "hover state", "hover effect", "darker", "lighter", "rounded corners", "styling", "restyle", "style the", "style this", "style a", "stylesheet", "stylesheets", "css", "classname", "classnames", "color", "colors", "colour", "colours", "padding", "margin", "margins", "font", "fonts", "dark mode", "theme", "theming", "responsive", "flexbox", "look nicer", "looks like", "cramped", "breathing room", "spacing", "on phones", "on mobile", "small screens", "misaligned", "align the", "match the look", "look the same", "should match the"},
		Weak:     []string{"style", "styles", "button", "card", "navbar", "header", "footer", "sidebar", "modal", "layout", "ui", "mobile", "design", "link", "links", "page", "dropdown", "dark", "light"},
		Template: "{S} uses {O} for styling"},
	{Predicate: "uses_orm", Of: either, Exclusive: true, Category: CatORM,
		Nouns:    []string{"orm", "data layer", "database layer", "data access", "data access layer", "persistence layer", "query builder", "db layer"},
		Cues:     []string{"soft-delete", "soft delete", "add a column", "new column", "nullable", "a column", "column to", "columns to", "column for", "drop the column", "users table", "to the table", "the schema", "orm", "relation between", "relationship", "relationships", "association", "associations", "foreign key", "has many", "belongs to", "join table", "migration", "migrations", "schema", "entity", "entities", "model for", "models", "should remember which", "remembers which", "must remember which", "keep track of which", "keeps track of which", "track which", "store which", "stores which", "record which", "records which"},
		Weak:     []string{"table", "tables", "column", "columns", "model", "relation", "linked to", "link", "query", "database", "db", "field", "fields"},
		Template: "{S} uses {O} as {their} ORM", Fallback: "uses_database"},
	{Predicate: "uses_queue", Of: either, Exclusive: true, Category: CatQueue,
		Nouns:    []string{"message queue", "queue", "broker", "message broker", "event bus", "job queue", "background jobs", "messaging", "event streaming", "task queue"},
		Cues:     []string{"message queue", "queue", "queues", "broker", "enqueue", "dead letter", "in the background", "asynchronously", "async job", "out of the request", "off the request path", "outside the request", "instead of in the request", "background job", "background jobs", "background worker", "pubsub", "event bus", "topic", "topics", "without blocking", "non-blocking", "don't block the request", "offload", "service know", "services know", "notify the", "notify other services"},
		Weak:     []string{"publish", "consume", "consumer", "consumers", "producer", "subscribe", "event", "events", "message", "messages", "worker", "workers", "job", "jobs", "async", "emit"},
		Template: "{S} uses {O} as {their} message queue"},
	{Predicate: "uses_iac", Of: either, Exclusive: true, Category: CatIaC,
		Nouns:    []string{"infrastructure as code", "infra as code", "iac", "provisioning"},
		Cues:     []string{"provision", "provisioning", "infrastructure as code", "infra as code", "iac", "bucket", "s3 bucket", "infra", "infrastructure", "state lock", "new bucket", "new cluster"},
		Weak:     []string{"instance", "vpc", "dns", "load balancer", "subnet", "cluster", "policy", "region", "resource", "resources", "spin up", "create"},
		Template: "{S} manages infrastructure with {O}"},
	{Predicate: "uses_build_tool", Of: either, Exclusive: true, Category: CatBuildTool,
		Nouns:    []string{"build tool", "build system"},
		Cues:     []string{"to the build", "in the build", "dependency to the build", "add the dependency", "dependency", "build tool", "build system", "build the", "server binary", "the binary", "jar", "build target", "build file", "build files", "compile", "compiles", "artifact", "library target", "binary target", "test target", "go_library", "py_library", "build rule", "build rules", "BUILD file", "BUILD.bazel", "build command", "the exact build command", "build and flash", "flash command", "flash it"},
		Weak:     []string{"build", "building", "affected", "target", "targets", "server", "monorepo", "binary", "binaries"},
		Acts:     []string{"build", "rebuild", "compile", "recompile", "bundle"},
		Template: "{S} builds with {O}"},
	{Predicate: "uses_error_tracker", Of: either, Exclusive: true, Category: CatErrorTracker,
		Nouns:    []string{"error tracker", "error tracking", "error reporting", "crash reporting", "exception tracking"},
		Cues:     []string{"error tracker", "error tracking", "error reporting", "exception reporting", "crash reporting", "exceptions", "exception", "crash", "crashes", "stack trace", "stack traces", "unhandled", "get reported", "gets reported", "reported somewhere", "report failures", "report the failures", "report errors", "report the errors"},
		Weak:     []string{"error", "errors", "bug", "alert", "report", "reporting", "worker"},
		Template: "{S} tracks errors with {O}"},
	{Predicate: "uses_observability", Of: either, Category: CatObservability,
		Nouns:    []string{"monitoring", "observability", "metrics", "logging", "logs", "tracing", "apm", "log aggregation", "alerting"},
		Cues:     []string{"500s", "5xx", "4xx", "error rate", "error logs", "log lines", "the logs", "metrics", "metric", "dashboard", "dashboards", "p99", "p95", "p50", "latency", "monitoring", "observability", "tracing", "traces", "graph it", "counter", "gauge", "histogram", "logs", "alerting", "apm"},
		Weak:     []string{"alert", "alerts", "slow", "performance", "log", "graph", "request id", "trace"},
		Template: "{S} uses {O} for observability"},
	{Predicate: "uses_feature_flags", Of: either, Exclusive: true, Category: CatFeatureFlags,
		Nouns:    []string{"feature flags", "feature flag", "flags", "feature toggles", "toggles", "feature flagging"},
		Cues:     []string{"gradually", "of users", "of our users", "of traffic", "canary", "subset of users", "phased rollout", "staged rollout", "beta users", "feature flag", "feature flags", "behind a flag", "behind a feature flag", "flag it", "feature toggle", "toggle", "kill switch", "a/b test", "experiment", "gradual rollout"},
		Weak:     []string{"rollout", "roll out", "enable", "disable", "beta", "flag", "flags"},
		Template: "{S} uses {O} for feature flags"},
	{Predicate: "uses_secrets_store", Of: either, Exclusive: true, Category: CatSecrets,
		Nouns:    []string{"secrets", "secret store", "secrets store", "secret manager", "secrets manager", "credentials", "api keys", "secret management", "secrets management"},
		Cues:     []string{"secret", "secrets", "api key", "api keys", "credentials", "credential", "password", "passwords", "token", "tokens", ".env", "private key"},
		Weak:     []string{"key", "env", "environment variable", "config"},
		Template: "{S} keeps secrets in {O}"},
	{Predicate: "uses_i18n", Of: either, Exclusive: true, Category: CatI18n,
		Nouns:    []string{"i18n", "translations", "localization", "localisation", "internationalization", "internationalisation", "l10n"},
		Cues:     []string{"translatable", "translations", "translation", "i18n", "l10n", "locale", "locales", "localize", "localise", "localization", "localisation", "internationalization", "language switcher"},
		Weak:     []string{"translate", "labels", "strings", "language", "languages", "copy", "label", "german", "french", "spanish", "japanese", "portuguese", "italian", "dutch", "chinese", "korean"},
		Acts:     []string{"translate", "localize", "localise"},
		Template: "{S} uses {O} for translations"},
	{Predicate: "uses_warehouse", Of: either, Exclusive: true, Category: CatWarehouse,
		Nouns:    []string{"warehouse", "data warehouse", "dwh", "analytics database"},
		Cues:     []string{"warehouse", "data warehouse", "dwh", "analytics query", "dbt", "nightly load", "came in empty", "loaded table", "row counts", "ingestion", "ingested"},
		Weak:     []string{"query", "analytics", "sql", "report", "reporting", "weekly active", "dashboard"},
		Template: "{S} uses {O} as {their} data warehouse"},
	{Predicate: "uses_data_pipeline", Of: either, Category: CatDataPipeline,
		Nouns:    []string{"data pipeline", "data pipelines", "orchestrator", "etl", "elt", "transformations", "data transformations"},
		Cues:     []string{"etl", "elt", "dag", "dags", "data pipeline", "orchestration", "transformation", "transformations", "to run every", "run every night", "runs every night", "nightly load", "nightly job", "every night at", "scheduled export", "the export to run", "backfill", "ingestion job", "ingestion jobs"},
		Weak:     []string{"pipeline", "models", "warehouse", "job"},
		Template: "{S} uses {O} for data pipelines"},

	{Predicate: "uses_oncall", Of: either, Exclusive: true, Category: CatOnCall,
		Nouns:    []string{"on-call", "on call", "oncall", "on-call rotation", "on call rotation", "rotation", "paging", "incident management", "pager"},
		Cues:     []string{"on call", "on-call", "oncall", "page whoever", "page someone", "page the", "who do i page", "who should i page", "who's on call", "who is on call", "who do i escalate", "pager", "paging", "incident", "incidents", "escalation", "escalate"},
		Weak:     []string{"page", "alert", "outage", "rotation"},
		Template: "{S} manages on-call with {O}"},
	{Predicate: "uses_date_library", Of: either, Exclusive: true, Category: CatDates,
		Nouns:    []string{"date library", "date lib", "datetime library", "date handling"},
		Cues:     []string{"date library", "format a date", "format the date", "format dates", "due date", "date format", "date string", "the date as", "dates as", "parse a date", "parse the date", "parse dates", "relative time", "days ago", "date math", "add days", "date arithmetic"},
		Weak:     []string{"date", "dates", "timestamp", "timestamps", "datetime", "format"},
		Template: "{S} uses {O} for dates"},
	{Predicate: "uses_logger", Of: either, Exclusive: true, Category: CatLogging,
		Nouns:    []string{"logger", "logging library", "log library", "logging lib"},
		Cues:     []string{"logger", "logging library", "structured logging", "structured logs", "add logging", "log line", "log lines", "log statement", "log statements", "log level"},
		Weak:     []string{"log", "logging", "logs", "debug"},
		Template: "{S} logs with {O}"},
	{Predicate: "uses_local_env", Of: either, Exclusive: true, Category: CatLocalEnv,
		Nouns:    []string{"local dev environment", "local environment", "dev environment", "local setup", "dev setup"},
		Cues:     []string{"local dev environment", "dev environment", "local environment", "spin up locally", "run it locally", "run locally", "local setup", "set up locally", "new laptop", "brand new laptop", "onboard", "onboarding"},
		Weak:     []string{"locally", "local", "spin up", "setup", "environment"},
		Template: "{S} runs locally with {O}"},
	{Predicate: "deadline_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"deadline", "launch deadline", "launch date", "release date", "ship date", "go-live date", "due date"},
		Cues:     []string{"deadline", "until launch", "until the launch", "launch date", "release date", "ship date", "when do we launch", "when is the launch", "go-live", "how much time do we have", "how long until"},
		Weak:     []string{"launch", "release", "ship", "time", "left", "date"},
		Template: "{S}'s deadline is {O}"},
	{Predicate: "has_meeting", Of: userOnly, Exclusive: false,
		Cues:     []string{"1:1", "1:1s", "one-on-one", "one on one", "team sync", "my next meeting", "my meetings", "sprint planning", "retro", "weekly sync", "standup", "stand-up", "standups", "daily standup", "morning sync", "daily sync", "deep work", "focus time", "block out", "which slot", "free slot", "my calendar", "tomorrow morning"},
		Weak:     []string{"meeting", "sync", "prep", "notes", "agenda", "calendar", "remind me"},
		Template: "{S} has {a} {O}"},

	// Open slots of a deployed project.
	{Predicate: "k8s_namespace_is", Of: projectOnly, Exclusive: false,
		Nouns:    []string{"namespace", "k8s namespace", "kubernetes namespace", "staging namespace", "prod namespace", "production namespace", "dev namespace"},
		Cues:     []string{"namespace", "pod", "pods", "kubectl", "k8s", "kubernetes", "helm release"},
		Weak:     []string{"logs", "staging", "prod", "production", "cluster", "restart", "deployment", "tail"},
		Template: "{S}'s Kubernetes namespace is {O}"},
	{Predicate: "k8s_cluster_is", Of: projectOnly, Exclusive: false,
		Nouns:    []string{"cluster", "k8s cluster", "kubernetes cluster", "production cluster", "prod cluster", "staging cluster"},
		Cues:     []string{"cluster", "pods", "pod", "kubectl", "k8s", "kubernetes", "node pool", "kubeconfig", "kube context"},
		Weak:     []string{"prod", "production", "staging", "crashing", "restart"},
		Template: "{S}'s Kubernetes cluster is {O}"},
	{Predicate: "region_is", Of: projectOnly, Exclusive: true,
		Nouns:      []string{"region", "aws region", "cloud region", "gcp region", "azure region", "default region"},
		Ambiguous:  []string{"region"},
		Cues:       []string{"which region", "what region", "the region", "spin up", "availability zone"},
		Weak:       []string{"region", "cluster", "provision", "bucket", "instance", "deploy", "latency"},
		Shape:      `\b(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:north|south|east|west|central|northeast|northwest|southeast|southwest)-\d\b|\b(?:europe|us|asia|australia|northamerica|southamerica)-(?:north|south|east|west|central|northeast|southeast|southwest|northwest)\d\b`,
		ShapeWords: []string{"us", "eu", "ap", "west", "east", "central", "north", "south", "northeast", "southeast", "europe", "asia"},
		Template:   "{S}'s region is {O}"},
	// Who reviews the project's changes, when it releases, and the
	// machines it runs on: asked of by the work ("who should review my
	// PR", "what's the cutoff for the next release", "ssh into staging").
	{Predicate: "reviewer_is", Of: projectOnly, Exclusive: false,
		Nouns:    []string{"owner", "module owner", "reviewer", "code reviewer", "code owner", "codeowner", "reviewers", "code owners"},
		Cues:     []string{"who owns", "owns", "who do i ask", "who should i ask", "who to ask", "who can i ask", "review my pr", "review my change", "review this", "review it", "review my code", "who should review", "who reviews", "who can review", "ask to review", "request a review", "request review", "code review", "code reviews", "codeowners", "code owner", "reviewer", "reviewers", "reviews anything", "reviews everything", "reviews all", "who should approve", "who approves", "who can approve", "handles infra", "owns infra", "in charge of"},
		Weak:     []string{"review", "reviews", "approve", "approval", "pr", "sign off", "ask"},
		Template: "{S}'s reviewer is {O}", Fallback: "tech_lead_is"},
	{Predicate: "release_schedule_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"release day", "release schedule", "release cadence", "release train", "code freeze", "release cutoff", "cutoff"},
		Cues:     []string{"release day", "release train", "code freeze", "next release", "the cutoff", "cutoff", "make the release", "in the release", "go out", "goes out", "release window", "when do we release", "when do we ship", "freeze"},
		Weak:     []string{"release", "releases", "ship", "when should", "merge", "deadline", "migration"},
		Template: "{S}'s release schedule is {O}"},
	{Predicate: "server_is", Of: projectOnly, Exclusive: false,
		Nouns:     []string{"staging box", "staging server", "staging host", "prod box", "prod server", "prod host", "production server", "production box", "server", "host", "hostname", "box", "vm"},
		Ambiguous: []string{"server", "host", "box", "vm"},
		Cues:      []string{"ssh into", "ssh to", "log into staging", "box called", "server called", "host called", "machine called", "vm called", "staging runs on", "prod runs on", "production runs on", "log into prod", "on staging", "to staging", "on prod", "the staging box", "the prod box", "which box", "which server", "which host", "tail the logs", "tail the app logs"},
		Weak:      []string{"staging", "prod", "production", "logs", "tail", "restart", "deploy"},
		Template:  "{S}'s server is {O}"},
	// The project's limits and names that code must respect: the
	// coverage a change must keep, the rate a vendor allows, the names of
	// its environment variables.
	{Predicate: "coverage_threshold_is", Of: projectOnly, Exclusive: true,
		Nouns:    []string{"coverage threshold", "min coverage", "minimum coverage", "coverage gate", "coverage requirement", "coverage"},
		Cues:     []string{"coverage gate", "coverage threshold", "coverage check", "enough coverage", "coverage", "code coverage"},
		Weak:     []string{"pass", "percent", "ci", "gate"},
		Template: "{S}'s coverage threshold is {O}"},
	{Predicate: "rate_limit_is", Of: projectOnly, Exclusive: false,
		Nouns:    []string{"rate limit", "rate limits", "requests per second", "requests per minute", "rps", "qps", "quota"},
		Cues:     []string{"rate limit", "rate limited", "rate-limited", "throttled", "throttle", "throttling", "too many requests", "429", "requests per second", "how many requests", "concurrent requests", "concurrent workers", "how many workers"},
		Weak:     []string{"concurrency", "concurrent", "workers", "parallel", "burst"},
		Template: "{S}'s rate limit is {O}"},
	{Predicate: "env_var_is", Of: projectOnly, Exclusive: false,
		Nouns:    []string{"env var", "env variable", "environment variable", "env vars", "environment variables"},
		Cues:     []string{"from the environment", "from the env", "env var", "environment variable", "reads the key", "read the key", "the credentials", "api key", "os.getenv", "process.env"},
		Weak:     []string{"credentials", "secret", "token", "key", "env"},
		Template: "{S}'s environment variable is {O}"},
	{Predicate: "tech_lead_is", Of: either, Exclusive: true,
		Nouns:    []string{"tech lead", "technical lead", "lead engineer", "lead developer"},
		Cues:     []string{"tech lead", "technical lead", "lead engineer", "lead developer", "design doc", "design review", "architecture review", "architecture doc", "architecture docs", "architecture decision", "architecture decisions", "adr", "tech spec", "technical spec", "technical direction", "sign off on the design"},
		Weak:     []string{"review", "approve", "sign off", "ask"},
		Template: "{S}'s tech lead is {O}"},
	{Predicate: "preferred_language_is", Of: userOnly, Exclusive: true, Family: "prefers",
		Nouns:    []string{"preferred language", "strongest language", "go-to language", "main language", "comfort language"},
		Cues:     []string{"quick script", "a script", "small script", "little script", "small tool", "little tool", "one-off", "cli tool", "which language should", "what language should", "in terms i'd know", "terms i know"},
		Weak:     []string{"script", "tool", "write", "snippet", "explain"},
		Template: "{S} prefers to write {O}", Fallback: "uses_language"},

	// The versions of languages and runtimes, one slot each.
	{Predicate: "ruby_version_is", Of: either, Exclusive: true, Nouns: []string{"ruby version"},
		Cues: []string{"ruby version", "which ruby", ".ruby-version", "tool-versions"}, Weak: []string{"ruby", "version", "upgrade"},
		Template: "{S} uses Ruby {O}", Family: FamilyLanguageVersion, VersionOf: "ruby"},
	{Predicate: "java_version_is", Of: either, Exclusive: true, Nouns: []string{"java version", "jdk version"},
		Cues: []string{"java version", "jdk", "which java", "jre"}, Weak: []string{"java", "version", "upgrade", "base image"},
		Template: "{S} uses Java {O}", Family: FamilyLanguageVersion, VersionOf: "java"},
	{Predicate: "rust_version_is", Of: either, Exclusive: true, Nouns: []string{"rust version", "rust toolchain", "msrv"},
		Cues: []string{"rust version", "msrv", "which rust", "rust-toolchain", "toolchain", "this crate", "the crate"}, Weak: []string{"rust", "crate", "edition", "version", "can i use"},
		Template: "{S} uses Rust {O}", Family: FamilyLanguageVersion, VersionOf: "rust"},
	{Predicate: "php_version_is", Of: either, Exclusive: true, Nouns: []string{"php version"},
		Cues: []string{"php version", "which php"}, Weak: []string{"php", "version"},
		Template: "{S} uses PHP {O}", Family: FamilyLanguageVersion, VersionOf: "php"},
	{Predicate: "typescript_version_is", Of: either, Exclusive: true, Nouns: []string{"typescript version"},
		Template: "{S} uses TypeScript {O}", Family: FamilyLanguageVersion, VersionOf: "typescript"},
	{Predicate: "deno_version_is", Of: either, Exclusive: true, Nouns: []string{"deno version"},
		Template: "{S} uses Deno {O}", Family: FamilyLanguageVersion, VersionOf: "deno"},

	// Open, additive relations: what a person likes, prefers or works on,
	// where a named thing is, and any use outside the taxonomy.
	{Predicate: "prefers", Of: either, Template: "{S} prefers {O}"},
	{Predicate: "likes", Of: either, Template: "{S} likes {O}"},
	{Predicate: "dislikes", Of: either, Template: "{S} dislikes {O}"},
	{Predicate: "works_on", Of: either, Template: "{S} works on {O}"},
	{Predicate: "located_in", Exclusive: true, Template: "{S} {is} in {O}"},
	{Predicate: "uses", Of: either, Template: "{S} uses {O}"},
}

var (
	byPredicate = sync.OnceValue(func() map[string]*Relation {
		m := make(map[string]*Relation, len(table))
		for i := range table {
			m[table[i].Predicate] = &table[i]
		}
		return m
	})
	byNoun = sync.OnceValue(func() map[string]*Relation {
		m := map[string]*Relation{}
		for i := range table {
			for _, n := range table[i].Nouns {
				if _, taken := m[n]; !taken {
					m[n] = &table[i]
				}
			}
		}
		return m
	})
	byCategory = sync.OnceValue(func() map[string]*Relation {
		m := map[string]*Relation{}
		for i := range table {
			if c := table[i].Category; c != "" {
				m[c] = &table[i]
			}
		}
		return m
	})
)

// All returns every relation, in the table's order.
func All() []Relation { return slices.Clone(table) }

// ByPredicate returns the relation with this predicate.
func ByPredicate(predicate string) (Relation, bool) {
	r, ok := byPredicate()[predicate]
	if !ok {
		return Relation{}, false
	}
	return *r, true
}

// ByNoun returns the relation a slot noun names: "package manager",
// "timezone", "boss".
func ByNoun(noun string) (Relation, bool) {
	r, ok := byNoun()[noun]
	if !ok {
		return Relation{}, false
	}
	return *r, true
}

// CategoryPredicate returns the predicate of a tool category's relation.
func CategoryPredicate(category string) string {
	if r, ok := byCategory()[category]; ok {
		return r.Predicate
	}
	return "uses_" + category
}

// NotPrefix marks the predicate of a negated belief: "Project no longer
// uses Jest" is (project, not_uses_test_runner, jest).
const NotPrefix = "not_"

// ToolSlot reports whether a predicate, negated or not, names the one tool
// a project uses for a job (uses_package_manager, deploys_with, …). Who
// states it — "I use", "we use" — does not change which slot it fills.
func ToolSlot(predicate string) bool {
	p := strings.TrimPrefix(predicate, NotPrefix)
	return strings.HasPrefix(p, "uses_") || p == "deploys_with"
}

// IsPersonal reports whether predicate is a personal tool relation
// (Relation.Personal).
func IsPersonal(predicate string) bool {
	r, ok := byPredicate()[predicate]
	return ok && r.Personal
}

// IsExclusive reports whether predicate has cardinality one: its relation
// says so, or, for a predicate no relation knows, it names a single value
// with the "_is" suffix (favorite_language_is). Guideline predicates never
// are.
func IsExclusive(predicate string) bool {
	if r, ok := byPredicate()[predicate]; ok {
		return r.Exclusive
	}
	switch predicate {
	case "located_in":
		return true
	}
	if strings.HasPrefix(predicate, "should") {
		return false
	}
	return strings.HasSuffix(predicate, "_is")
}

// Exclusive lists the predicates of the exclusive relations, and the
// others known to be exclusive, for the relations table of a new
// database.
func Exclusive() []string {
	var out []string
	for _, r := range table {
		if r.Exclusive {
			out = append(out, r.Predicate)
		}
	}
	return out
}
