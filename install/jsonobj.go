package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that remembers the order of its keys and keeps
// every value it does not touch byte for byte, so editing one setting in a
// file Claude Code owns leaves the rest of it exactly as it was.
type object struct {
	members []member
}

type member struct {
	key   string
	value json.RawMessage
}

// errNotObject reports JSON that is valid but not an object.
var errNotObject = errors.New("not a JSON object")

// parseObject reads a JSON object, rejecting anything else.
func parseObject(data []byte) (*object, error) {
	if !json.Valid(data) {
		// Unmarshal into a throwaway value for an error that says where.
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		return nil, errors.New("invalid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if delim, ok := tok.(json.Delim); !ok || delim != '{' {
		return nil, errNotObject
	}
	obj := &object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected %v where a key belongs", tok)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("value of %q: %w", key, err)
		}
		obj.members = append(obj.members, member{key: key, value: raw})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the closing brace")
	}
	return obj, nil
}

// get returns the value of key (the last one, as JSON.parse does when a key
// repeats).
func (o *object) get(key string) (json.RawMessage, bool) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return o.members[i].value, true
		}
	}
	return nil, false
}

// getObject returns the value of key as an object, or a new empty object
// when the key is absent.
func (o *object) getObject(key string) (*object, error) {
	raw, ok := o.get(key)
	if !ok {
		return &object{}, nil
	}
	obj, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%q: %w", key, err)
	}
	return obj, nil
}

// set replaces the value of key in place, or appends the key.
func (o *object) set(key string, value json.RawMessage) {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			o.members[i].value = value
			return
		}
	}
	o.members = append(o.members, member{key: key, value: value})
}

// delete removes every occurrence of key and reports whether there was one.
func (o *object) delete(key string) bool {
	kept := o.members[:0]
	for _, m := range o.members {
		if m.key != key {
			kept = append(kept, m)
		}
	}
	removed := len(kept) != len(o.members)
	o.members = kept
	return removed
}

// marshal renders the object compactly; values are kept as they were read.
func (o *object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(encodeJSON(m.key))
		b.WriteByte(':')
		if err := json.Compact(&b, m.value); err != nil {
			// Values come from parseObject or encodeJSON, so they are valid.
			panic(fmt.Sprintf("install: compact value of %q: %v", m.key, err))
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// encodeJSON marshals v without HTML escaping, so a command containing & or
// > is written the way a person would write it.
func encodeJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(fmt.Sprintf("install: encode %T: %v", v, err))
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// parseArray reads a JSON array into its raw elements.
func parseArray(raw json.RawMessage) ([]json.RawMessage, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, errors.New("not a JSON array")
	}
	return elems, nil
}

// marshalArray renders raw elements as a compact JSON array.
func marshalArray(elems []json.RawMessage) json.RawMessage {
	if len(elems) == 0 {
		return json.RawMessage("[]")
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(e)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// sameJSON reports whether two JSON values are equal as data, ignoring
// formatting and key order.
func sameJSON(a, b json.RawMessage) bool {
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return bytes.Equal(encodeJSON(va), encodeJSON(vb))
}

// detectIndent returns the indentation the document uses for its first
// nested line, so a rewritten file keeps its style; two spaces (what Claude
// Code writes) when there is none.
func detectIndent(data []byte) string {
	for line := range bytes.Lines(data) {
		trimmed := bytes.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && len(bytes.TrimSpace(trimmed)) > 0 {
			return string(line[:n])
		}
	}
	return "  "
}

// render indents a compact document the way the original was indented and
// keeps its trailing newline, if it had one.
func render(doc json.RawMessage, original []byte) []byte {
	var b bytes.Buffer
	if err := json.Indent(&b, doc, "", detectIndent(original)); err != nil {
		panic(fmt.Sprintf("install: indent document: %v", err))
	}
	if len(original) == 0 || bytes.HasSuffix(original, []byte("\n")) {
		b.WriteByte('\n')
	}
	return b.Bytes()
}
