package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzEditHooks feeds arbitrary settings.json text through the hook merge:
// it must either refuse the input or produce valid JSON that a second merge
// leaves alone, keeping every top-level key it was given.
func FuzzEditHooks(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "settings-with-other-hooks.json")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"hooks": {"Stop": [{"hooks": [{"command": "/x/credence-hook Stop"}, {"command": "y"}]}]}}`))
	f.Add([]byte(`{"a": "\u003c", "a": 2, "hooks": {}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := parseObject(data)
		if err != nil {
			return
		}
		var before map[string]any
		if err := json.Unmarshal(data, &before); err != nil {
			t.Fatalf("parseObject accepted what encoding/json rejects: %v", err)
		}
		if _, err := editHooks(doc, testHook, true); err != nil {
			return
		}
		out := render(doc.marshal(), data)
		var after map[string]any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("merge produced invalid JSON: %v\n%s", err, out)
		}
		for k := range before {
			if _, ok := after[k]; !ok && k != "hooks" {
				t.Errorf("key %q lost", k)
			}
		}
		again, err := parseObject(out)
		if err != nil {
			t.Fatalf("cannot reparse merged output: %v", err)
		}
		if changed, err := editHooks(again, testHook, true); err != nil || changed {
			t.Errorf("second merge = %v, %v; want no change\n%s", changed, err, out)
		}
	})
}
