package transcript

import (
	"io"
	"os"
)

// EachPrompt calls fn with the text of every prompt on a complete line of
// the transcript at path that ends at or before limit (the whole file when
// limit <= 0), in order.
func EachPrompt(path string, limit int64, fn func(text string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.ReaderAt = f
	if limit > 0 {
		r = io.NewSectionReader(f, 0, limit)
	}
	return scanPrompts(r, -1, func(_ promptID, p PromptRef) { fn(p.Text) })
}
