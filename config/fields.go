package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/credence-mem/credence/config/defaults"
)

// envPrefix starts every environment variable credence reads for itself.
const envPrefix = defaults.EnvPrefix

// Field describes one setting: its dotted key, environment names and
// reference text, all read from the struct tags of Config.
type Field struct {
	Key      string   // dotted key, e.g. "llm.model"
	Section  string   // TOML table, "" for top-level keys
	Name     string   // key within the section, e.g. "model"
	Env      string   // CREDENCE_* variable, e.g. "CREDENCE_LLM_MODEL"
	Fallback string   // generic variable read below the file, e.g. "OPENAI_API_KEY"
	Doc      string   // one-sentence description
	OneOf    []string // allowed values, nil when free
	Secret   bool     // never printed
	Path     bool     // a file path; ~ is expanded
	Derived  string   // description of a default computed at load time

	index []int
	typ   reflect.Type
}

// fieldTable is every setting, in declaration order and by dotted key.
type fieldTable struct {
	list  []Field
	byKey map[string]*Field
}

// fieldTableOnce builds the table on first use, so only a process that loads
// or prints the configuration reads Config's struct tags.
var fieldTableOnce = sync.OnceValue(buildFields)

var durationType = reflect.TypeFor[time.Duration]()

// Fields returns every setting in declaration order. The slice is shared;
// callers must not modify it.
func Fields() []Field {
	return fieldTableOnce().list
}

// lookupField returns the setting for a dotted key.
func lookupField(key string) (*Field, bool) {
	f, ok := fieldTableOnce().byKey[key]
	return f, ok
}

func buildFields() fieldTable {
	root := reflect.TypeFor[Config]()
	// Sized up front: Field is large, and growing the slice by doubling
	// copied the table several times.
	t := fieldTable{list: make([]Field, 0, countFields(root))}
	for i := range root.NumField() {
		sf := root.Field(i)
		name := tomlName(sf)
		if name == "" {
			continue
		}
		if sf.Type.Kind() == reflect.Struct && sf.Type != durationType {
			for j := range sf.Type.NumField() {
				inner := sf.Type.Field(j)
				if n := tomlName(inner); n != "" {
					t.list = append(t.list, newField(name, inner, []int{i, j}))
				}
			}
			continue
		}
		t.list = append(t.list, newField("", sf, []int{i}))
	}
	t.byKey = make(map[string]*Field, len(t.list))
	for i := range t.list {
		t.byKey[t.list[i].Key] = &t.list[i]
	}
	return t
}

// countFields returns how many settings buildFields will find in root.
func countFields(root reflect.Type) int {
	n := 0
	for i := range root.NumField() {
		sf := root.Field(i)
		if tomlName(sf) == "" {
			continue
		}
		if sf.Type.Kind() == reflect.Struct && sf.Type != durationType {
			n += sf.Type.NumField()
			continue
		}
		n++
	}
	return n
}

func tomlName(sf reflect.StructField) string {
	if !sf.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(sf.Tag.Get("toml"), ",")
	if name == "-" {
		return ""
	}
	return name
}

func newField(section string, sf reflect.StructField, index []int) Field {
	tags := parseFieldTags(sf.Tag)
	name, _, _ := strings.Cut(tags.toml, ",")
	key, env := name, strings.ToUpper(envPrefix+name)
	if section != "" {
		key = section + "." + name
		env = strings.ToUpper(envPrefix + section + "_" + name)
	}
	f := Field{
		Key:      key,
		Section:  section,
		Name:     name,
		Env:      env,
		Fallback: tags.fallback,
		Doc:      tags.doc,
		Secret:   tags.secret == "true",
		Path:     tags.path == "true",
		Derived:  tags.def,
		index:    index,
		typ:      sf.Type,
	}
	if tags.oneof != "" {
		f.OneOf = strings.Split(tags.oneof, ",")
	}
	return f
}

// value returns the field's reflect.Value inside c (settable when c is).
func (f *Field) value(c *Config) reflect.Value {
	return reflect.ValueOf(c).Elem().FieldByIndex(f.index)
}

// set parses s according to the field's type and stores it in c.
func (f *Field) set(c *Config, s string) error {
	v := f.value(c)
	s = strings.TrimSpace(s)
	switch {
	case f.typ == durationType:
		d, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration like \"4h\" or \"150ms\"", s)
		}
		v.SetInt(int64(d))
	case f.typ.Kind() == reflect.String:
		v.SetString(s)
	case f.typ.Kind() == reflect.Int || f.typ.Kind() == reflect.Int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", s)
		}
		v.SetInt(n)
	case f.typ.Kind() == reflect.Float64:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", s)
		}
		v.SetFloat(x)
	case f.typ.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%q is not true or false", s)
		}
		v.SetBool(b)
	default:
		// Reaching this means a field of a new type was added to Config
		// without teaching set about it.
		panic(fmt.Sprintf("config: field %s has unsupported type %s", f.Key, f.typ))
	}
	return nil
}

// tomlValue renders the field's value in c as a TOML literal.
func (f *Field) tomlValue(c *Config) string {
	v := f.value(c)
	switch {
	case f.typ == durationType:
		return strconv.Quote(formatDuration(time.Duration(v.Int())))
	case f.typ.Kind() == reflect.String:
		return strconv.Quote(v.String())
	case f.typ.Kind() == reflect.Int || f.typ.Kind() == reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case f.typ.Kind() == reflect.Float64:
		s := strconv.FormatFloat(v.Float(), 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0" // keep TOML's float type, so the file round-trips
		}
		return s
	case f.typ.Kind() == reflect.Bool:
		return strconv.FormatBool(v.Bool())
	}
	panic(fmt.Sprintf("config: field %s has unsupported type %s", f.Key, f.typ))
}

// formatDuration prints d the way a person writes it: "4h", "2m", "150ms",
// rather than time.Duration's "4h0m0s".
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
