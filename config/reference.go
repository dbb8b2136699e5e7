package config

import (
	"fmt"
	"strings"
)

// Reference markers delimit the generated part of docs/CONFIG.md.
const (
	ReferenceBegin = "<!-- BEGIN GENERATED: config reference (go test ./config -update) -->"
	ReferenceEnd   = "<!-- END GENERATED: config reference -->"
)

// ReferenceMarkdown returns one Markdown table per section listing every
// key, its default, its environment variables and its description. It is
// generated from the struct tags, so docs/CONFIG.md cannot drift from the
// code without the config tests failing.
func ReferenceMarkdown() string {
	def := Default()
	var b strings.Builder
	section := "\x00"
	for _, f := range Fields() {
		if f.Section != section {
			section = f.Section
			title := "Top level"
			if section != "" {
				title = "[" + section + "]"
			}
			fmt.Fprintf(&b, "\n### %s\n\n| Key | Default | Environment | Description |\n|---|---|---|---|\n", title)
		}
		value := f.tomlValue(&def)
		if f.Derived != "" {
			value = fmt.Sprintf("%q", f.Derived)
		}
		env := "`" + f.Env + "`"
		if f.Fallback != "" {
			env += ", then `" + f.Fallback + "` below the file"
		}
		doc := f.Doc
		if f.OneOf != nil {
			doc += " One of " + orList(f.OneOf) + "."
		}
		if f.Secret {
			doc += " Secret: never printed."
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s |\n", f.Key, value, env, escapeCell(doc))
	}
	return b.String()
}

// escapeCell keeps a table cell on one row.
func escapeCell(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}
