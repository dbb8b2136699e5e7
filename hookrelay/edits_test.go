package hookrelay

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestRecordEditWriteAndBash(t *testing.T) {
	data := t.TempDir()
	mem := filepath.Join(t.TempDir(), "memory")
	if err := os.MkdirAll(mem, 0o700); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(mem, "user_role.md")
	content := []byte("---\nname: role\n---\nbody\n")
	if err := os.WriteFile(file, content, 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	// Escapes in the path and an unrelated file_path in tool_response must
	// not confuse the scanner.
	in := `{"session_id":"s","cwd":"` + mem + `","tool_name":"Write","tool_input":{"file_path":"` +
		strings.ReplaceAll(file, "/", `\/`) + `","content":"x\u00e9\ud83d\ude00"},"tool_response":{"file_path":"/elsewhere.md","n":[1,2.5e3,true,null]}}`
	if err := RecordEdit(data, []byte(in), now); err != nil {
		t.Fatal(err)
	}
	// A Bash command that removed a memory file, named relative to cwd and
	// quoted; a .md it names that still exists is not recorded.
	gone := filepath.Join(mem, "old note.md")
	in = `{"cwd":"` + mem + `","tool_name":"Bash","tool_input":{"command":"rm -f 'old note.md' && cat user_role.md | head"}}`
	if err := RecordEdit(data, []byte(in), now.Add(time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	// Not markdown, and not a file tool: nothing.
	for _, in := range []string{
		`{"cwd":"/","tool_name":"Write","tool_input":{"file_path":"/tmp/x.go"}}`,
		`{"cwd":"/","tool_name":"Read","tool_input":{"file_path":"/tmp/x.md"}}`,
	} {
		if err := RecordEdit(data, []byte(in), now); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := ReadEditLog(data, now.Add(-time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("records = %+v, want 2", recs)
	}
	if recs[0].Path != file || recs[0].Hash != ContentHash(content) || recs[0].Tool != "Write" {
		t.Errorf("write record = %+v", recs[0])
	}
	if recs[1].Path != gone || recs[1].Hash != Gone || recs[1].Tool != "Bash" {
		t.Errorf("bash record = %+v", recs[1])
	}
	info, err := os.Stat(EditLogPath(data))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("log mode = %v, %v; want 0600", info.Mode(), err)
	}
}

func TestRecordEditRefusesBadInput(t *testing.T) {
	data := t.TempDir()
	for _, in := range []string{``, `[]`, `{"tool_name":`, `{"a":tru}`, `{"a":"\x01"}`, `{} x`,
		strings.Repeat(`{"a":`, 100) + `1` + strings.Repeat(`}`, 100)} {
		if err := RecordEdit(data, []byte(in), time.Now()); err == nil {
			t.Errorf("RecordEdit(%.30q) = nil, want an error", in)
		}
	}
	if EditLogExists(data) {
		t.Error("bad input created the edit log")
	}
}

func TestShellWords(t *testing.T) {
	got := shellWords(`rm -f "a b.md" c\ d.md 'e.md';mv x.md y.md`)
	want := []string{"rm", "-f", "a b.md", "c d.md", "e.md", "mv", "x.md", "y.md"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("shellWords = %q, want %q", got, want)
	}
}

// FuzzScanToolInput: the front's small JSON reader never panics, and on
// input encoding/json accepts as an object it reads the same four fields.
func FuzzScanToolInput(f *testing.F) {
	for _, s := range []string{
		`{"tool_name":"Write","cwd":"/a","tool_input":{"file_path":"/a/b.md","content":"x"}}`,
		`{"tool_name":"Bash","tool_input":{"command":"rm \"a b.md\""},"tool_response":{"stdout":"\u00e9\ud83d\ude00"}}`,
		`{"tool_input":[{"file_path":"x"}],"n":-1.5e10,"t":true,"f":false,"z":null}`,
		`{"a":{"b":{"c":[[[]]]}}}`,
		`{"tool_name":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := scanToolInput(data)
		var m map[string]any
		if jerr := json.Unmarshal(data, &m); jerr != nil || err != nil || !utf8.Valid(data) {
			return // only agreement on valid input matters; odd input only must not panic
		}
		field := func(obj map[string]any, key string) (string, bool) {
			v, ok := obj[key]
			if !ok {
				return "", true
			}
			s, ok := v.(string)
			return s, ok
		}
		in, _ := m["tool_input"].(map[string]any)
		if in == nil {
			in = map[string]any{}
		}
		want := [4]string{}
		for i, f := range []struct {
			obj map[string]any
			key string
		}{{m, "tool_name"}, {m, "cwd"}, {in, "file_path"}, {in, "command"}} {
			v, ok := field(f.obj, f.key)
			if !ok {
				return // a non-string value: the scanner keeps none, or an earlier duplicate's
			}
			want[i] = v
		}
		if _, isObj := m["tool_input"].(map[string]any); m["tool_input"] != nil && !isObj {
			return
		}
		if [4]string{got.tool, got.cwd, got.filePath, got.command} != want {
			t.Fatalf("scan %q = %q %q %q %q, encoding/json %q", data, got.tool, got.cwd, got.filePath, got.command, want)
		}
	})
}
