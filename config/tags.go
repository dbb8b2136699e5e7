package config

import (
	"reflect"
	"strconv"
)

// fieldTags are the struct tags of one Config field that newField reads.
type fieldTags struct {
	toml, doc, oneof, secret, fallback, path, def string
}

// parseFieldTags reads every tag newField needs in one pass over tag, with
// the rules of reflect.StructTag.Get: the first of a repeated key wins, a
// value that does not unquote reads as "", and parsing stops at malformed
// syntax. Calling Get once per key rescanned the long doc strings seven
// times per field, which was most of the cost of building the field table
// on every hook run.
func parseFieldTags(tag reflect.StructTag) fieldTags {
	var t fieldTags
	slots := [...]struct {
		key  string
		dst  *string
		seen bool
	}{
		{key: "toml", dst: &t.toml}, {key: "doc", dst: &t.doc}, {key: "oneof", dst: &t.oneof},
		{key: "secret", dst: &t.secret}, {key: "fallback", dst: &t.fallback},
		{key: "path", dst: &t.path}, {key: "def", dst: &t.def},
	}
	for tag != "" {
		name, qvalue, rest, ok := nextTag(tag)
		if !ok {
			break
		}
		tag = rest
		for i := range slots {
			if slots[i].key != name || slots[i].seen {
				continue
			}
			slots[i].seen = true
			if v, err := strconv.Unquote(qvalue); err == nil {
				*slots[i].dst = v
			}
		}
	}
	return t
}

// nextTag splits the first key:"value" pair off tag the way
// reflect.StructTag.Lookup scans it, returning the value still quoted; ok
// is false when tag holds no further well-formed pair.
func nextTag(tag reflect.StructTag) (name, qvalue string, rest reflect.StructTag, ok bool) {
	i := 0
	for i < len(tag) && tag[i] == ' ' {
		i++
	}
	tag = tag[i:]
	i = 0
	for i < len(tag) && tag[i] > ' ' && tag[i] != ':' && tag[i] != '"' && tag[i] != 0x7f {
		i++
	}
	if i == 0 || i+1 >= len(tag) || tag[i] != ':' || tag[i+1] != '"' {
		return "", "", "", false
	}
	name = string(tag[:i])
	tag = tag[i+1:]
	i = 1
	for i < len(tag) && tag[i] != '"' {
		if tag[i] == '\\' {
			i++
		}
		i++
	}
	if i >= len(tag) {
		return "", "", "", false
	}
	return name, string(tag[:i+1]), tag[i+1:], true
}
