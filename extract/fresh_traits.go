package extract

import (
	"regexp"
	"strings"
)

// The traits of fresh.go: what a person says of themselves in passing
// that the relations table has no words for, each in an open slot.

var (
	// "i'm type 1 diabetic", "I have asthma"
	healthRe = lazyRegexp(`(?:^|[—–,:;]\s*|\b(?:fyi|btw|heads\s+up|also|so|and)\s+)i\s+(?:am\s+(?:a\s+)?((?:type\s+[12]\s+)?diabetic|asthmatic|epileptic|anemic|anaemic|immunocompromised|hypoglycemic)|have\s+((?:type\s+[12]\s+)?diabetes|asthma|epilepsy|migraines|a\s+heart\s+condition|long\s+covid|arthritis|crohn's))(?:\s*[,.;:!—–-]|\s+(?:so|and|but|which|btw|fyi|lol|haha|myself|too)\b|\s*$)`)
	// "my wife Noor and I are going to Kyoto in april", "I'm flying to
	// Lisbon in june"
	tripRe = regexp.MustCompile(`(?:^|\s)(?:[Ii]\s+am|[Ii]'m|[Ww]e\s+are|[Ww]e're|[Ii]\s+are)\s+(?:going|flying|heading|traveling|travelling|off|driving|visiting)\s+(?:out\s+)?(?:to\s+)?([A-Z][\w-]+(?:\s+[A-Z][\w-]+)?)\s+((?:in|on|this|next|over)\s+(?:` + monthRe + `|` + weekdayRe + `|week|weekend|month|summer|spring|autumn|fall|winter|christmas|easter|the\s+holidays)\b)`)
	// "anything after 3pm is a no-go for meetings", "nothing before 9:30
	// please", "nothing after 4:30 that day"
	noGoRe = lazyRegexp(`\b(?:anything|nothing|no\s+meetings|no\s+calls)\s+(after|before|past)\s+(\d{1,2}(?::\d{2})?\s*(?:am|pm)?)(?:\s+(?:is|are)\s+(?:a\s+no-go|a\s+no\s+go|out|off\s+limits|off-limits|impossible|not\s+possible|tough)|\s+that\s+day|\s+please|\s+for\s+(?:meetings|calls)|$)`)
	daysRe = lazyRegexp(`\b(?:every|on)\s+(weekdays?|` + weekdayRe + `s?)\b`)
	// "I'm learning Portuguese, around B1", "I'm studying Korean"
	learningRe = lazyRegexp(`(?:^|\s)i\s+am\s+(?:learning|studying|taking\s+lessons\s+in|picking\s+up)\s+([a-z]+)(?:\s*,|\s+(?:at|around|about|now|so|mostly|mainly|for|because|to|again|on|with|in|every|each|after|before|during|these|this|at)\b|$)`)
)

// spokenLanguages are the languages a person may be learning to speak.
var spokenLanguages = map[string]bool{
	"portuguese": true, "spanish": true, "french": true, "german": true, "italian": true, "japanese": true, "korean": true,
	"mandarin": true, "chinese": true, "cantonese": true, "arabic": true, "russian": true, "dutch": true, "swedish": true,
	"norwegian": true, "danish": true, "finnish": true, "polish": true, "greek": true, "turkish": true, "hindi": true,
	"hebrew": true, "vietnamese": true, "thai": true, "indonesian": true, "ukrainian": true, "czech": true, "hungarian": true,
	"romanian": true, "catalan": true, "basque": true, "irish": true, "welsh": true, "swahili": true, "tagalog": true,
	"persian": true, "farsi": true, "bengali": true, "urdu": true, "icelandic": true, "english": true, "latin": true,
}

// traits reads the person's health, a trip they are about to take, the
// hours they cannot meet and a language they are learning, said about
// themselves ("my coworker is diabetic" and "my brother is learning
// Portuguese" say nothing of them).
func traits(c *clause) []Fact {
	t := c.text
	var out []Fact
	if strings.Contains(t, "i am ") || strings.Contains(t, "i have ") {
		if m := healthRe().FindStringSubmatch(t); m != nil {
			v := m[1] + m[2]
			out = append(out, Fact{Subject: SubjectUser, Predicate: "health_is", Object: v})
		}
		if m := learningRe().FindStringSubmatch(t); m != nil && spokenLanguages[m[1]] {
			out = append(out, Fact{Subject: SubjectUser, Predicate: "is_learning", Object: m[1], shownObject: upperFirst(m[1])})
		}
	}
	if strings.Contains(t, " to ") || strings.Contains(t, "visiting") {
		if m := tripRe.FindStringSubmatch(c.span); m != nil && !notValues()[strings.ToLower(m[1])] {
			if _, tool := lookupTool(strings.ToLower(m[1])); !tool {
				out = append(out, Fact{Subject: SubjectUser, Predicate: "trip_is", Object: strings.ToLower(m[1] + " " + m[2]),
					shownObject: "to " + m[1] + " " + m[2]})
			}
		}
	}
	if strings.Contains(t, "after ") || strings.Contains(t, "before ") || strings.Contains(t, "past ") {
		if m := noGoRe().FindStringSubmatch(t); m != nil && (strings.Contains(t, ":") || strings.Contains(m[2], "m")) {
			v := "until " + strings.TrimSpace(m[2])
			if m[1] == "before" {
				v = "from " + strings.TrimSpace(m[2])
			}
			if d := daysRe().FindStringSubmatch(t); d != nil {
				v += " on " + d[1]
				if !strings.HasSuffix(d[1], "s") {
					v += "s"
				}
			}
			out = append(out, Fact{Subject: SubjectUser, Predicate: "work_hours_are", Object: v})
		}
	}
	return out
}
