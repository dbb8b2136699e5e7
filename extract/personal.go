package extract

import "strings"

// Things about the person that are no tool and no identity: an
// instrument or a game they play ("I play bass in a band on weekends"),
// the keyboard layout they type on ("i type on a Dvorak layout") and the
// language they speak natively ("I'm a native Dutch speaker").
// Both are read only from the speaker's own present habit: "I used to
// play bass", "my friend types on Dvorak" and "should I learn colemak?"
// say nothing of the person now.

// instruments and games a person plays for its own sake; "go" is left
// out, as it is also the language.
const (
	instruments = `bass guitar|electric guitar|acoustic guitar|classical guitar|double bass|upright bass|guitar|bass|piano|keyboards|keys|drums|violin|viola|cello|ukulele|uke|saxophone|sax|trumpet|trombone|flute|clarinet|harmonica|banjo|mandolin|harp|accordion|synths?|organ|oboe|tuba|percussion`
	games       = `chess|tennis|football|soccer|basketball|volleyball|badminton|squash|golf|hockey|ice hockey|rugby|cricket|padel|table tennis|ping pong|poker|bridge|d&d|dnd|dungeons and dragons|pickleball|ultimate frisbee|water polo|baseball|softball`
)

var (
	// playsRe: "I play bass in a band", "i've been playing the cello for
	// years", "I also play chess on weekends".
	playsRe = lazyRegexp(`^i ` + adv + `(?:play|been playing|am playing|have been playing) (?:the |a |some |a bit of |a little )?(` + instruments + `|` + games + `)(?:$| (?:in|with|for|on|at|every|most|since|a lot|too|as|semi|badly|poorly|mostly|competitively|casually|at)\b.*$|,.*$)`)
	// playerRe: "I'm a bassist in a cover band", "i am a drummer on the side".
	playerRe = lazyRegexp(`^i am (?:a|an) (?:amateur |hobby |weekend |semi-pro |jazz |rock |metal |classical |bad |terrible |decent |keen |avid )?(bassist|bass player|guitarist|guitar player|pianist|drummer|violinist|cellist|saxophonist|trumpeter|chess player|tennis player)(?:$| (?:in|on|for|with) .*$)`)
)

// playerOf turns a player's noun into what they play.
var playerOf = map[string]string{"bassist": "bass", "bass player": "bass", "guitarist": "guitar", "guitar player": "guitar",
	"pianist": "piano", "drummer": "drums", "violinist": "violin", "cellist": "cello", "saxophonist": "saxophone",
	"trumpeter": "trumpet", "chess player": "chess", "tennis player": "tennis"}

// keyboardLayouts are the layouts a person types on.
const keyboardLayouts = `colemak-dh|colemak dh|colemak mod-dh|colemak|dvorak|programmer dvorak|workman|qwerty|qwertz|azerty|bepo|bépo|neo2|neo|norman|halmak|canary|graphite|engram`

var (
	// layoutRe: "i type on a Dvorak layout", "I use colemak", "my keyboard
	// layout is AZERTY", "I switched my layout to colemak-dh", "im on a
	// dvorak layout", "been typing on workman since spring".
	layoutRe = lazyRegexp(`^(?:i ` + adv + `(?:type|touch-type|touch type|write|code|am typing|been typing|have been typing|use|am using|been using|have been using|am on|been on|have been on|run|daily drive|switched|moved|went|changed|learned|learnt) (?:over )?(?:my (?:keyboard )?layout )?(?:on |in |with |using |to |over to )?(?:a |an |the )?|my (?:keyboard )?layout (?:is|has been) (?:now )?(?:a |an )?)(` + keyboardLayouts + `)(?: (?:layout|keyboard layout|keyboard|keymap))?(?:$| (?:now|these days|nowadays|full time|exclusively|since|for|so|because|at|on|and|but)\b.*$|,.*$)`)
	// layoutUser: "I'm a dvorak user", "i am a colemak typist".
	layoutUser = lazyRegexp(`^i am (?:a|an) (` + keyboardLayouts + `) (?:user|typist|person)(?:$|\W.*$)`)
)

// nativeSpeaker: "I'm a native Dutch speaker".
var nativeSpeaker = lazyRegexp(`^i am (?:a )?native ([a-z]+) speaker\b`)

// matchPersonal reads an instrument or game the person plays and the
// keyboard layout they type on.
func matchPersonal(c *clause) []Fact {
	t := c.text
	if w := firstWord(t); w == "been" || w == "switched" || w == "moved" || w == "changed" {
		t = "i " + t // "been playing guitar for years", "switched my layout to colemak"
	}
	if !strings.HasPrefix(t, "i ") && !strings.HasPrefix(t, "my ") {
		return nil
	}
	if m := playsRe().FindStringSubmatch(t); m != nil {
		return hobbyFact(m[1])
	}
	if m := playerRe().FindStringSubmatch(t); m != nil {
		return hobbyFact(playerOf[m[1]])
	}
	if m := nativeSpeaker().FindStringSubmatch(t); m != nil && naturalLanguages[m[1]] {
		return []Fact{{Subject: SubjectUser, Predicate: "native_language_is", Object: m[1], shownObject: upperFirst(m[1])}}
	}
	m := layoutRe().FindStringSubmatch(t)
	if m == nil {
		m = layoutUser().FindStringSubmatch(t)
	}
	if m != nil {
		layout := strings.NewReplacer("bépo", "bepo", "colemak dh", "colemak-dh", "colemak mod-dh", "colemak-dh").Replace(m[1])
		return []Fact{{Subject: SubjectUser, Predicate: "keyboard_layout_is", Object: layout, shownObject: layoutName(layout)}}
	}
	return nil
}

// hobbyFact is the person's hobby of playing thing: "User's hobby is
// playing bass".
func hobbyFact(thing string) []Fact {
	thing = strings.NewReplacer("uke", "ukulele", "keys", "keyboards", "dnd", "D&D", "d&d", "D&D").Replace(thing)
	if thing == "ukulelele" {
		thing = "ukulele"
	}
	obj := "playing " + thing
	return []Fact{{Subject: SubjectUser, Predicate: "hobby_is", Object: strings.ToLower(obj), shownObject: obj}}
}

// layoutName is how a layout is written: "Dvorak", "Colemak-DH", "AZERTY".
func layoutName(l string) string {
	switch l {
	case "qwerty", "qwertz", "azerty":
		return strings.ToUpper(l)
	case "colemak-dh":
		return "Colemak-DH"
	case "bepo":
		return "BÉPO"
	}
	return upperFirst(l)
}

// naturalLanguages are languages people speak, not write code in.
var naturalLanguages = map[string]bool{"english": true, "dutch": true, "german": true, "french": true, "spanish": true,
	"italian": true, "portuguese": true, "polish": true, "russian": true, "ukrainian": true, "czech": true, "slovak": true,
	"hungarian": true, "romanian": true, "bulgarian": true, "greek": true, "turkish": true, "arabic": true, "hebrew": true,
	"hindi": true, "bengali": true, "urdu": true, "tamil": true, "telugu": true, "mandarin": true, "cantonese": true,
	"chinese": true, "japanese": true, "korean": true, "vietnamese": true, "thai": true, "indonesian": true, "malay": true,
	"tagalog": true, "swedish": true, "norwegian": true, "danish": true, "finnish": true, "icelandic": true, "estonian": true,
	"latvian": true, "lithuanian": true, "serbian": true, "croatian": true, "slovenian": true, "catalan": true, "basque": true,
	"galician": true, "welsh": true, "irish": true, "afrikaans": true, "swahili": true, "persian": true, "farsi": true}
