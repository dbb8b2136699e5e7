package transcript

import (
	"context"
	"io"
	"math"
)

// EachPrompt calls fn with the text of every prompt on a complete line of
// the transcript at path that ends at or before limit (the whole file when
// limit <= 0), in order. The file is opened with Open: it must be a
// regular file, and reading stops with ctx.
func EachPrompt(ctx context.Context, path string, limit int64, fn func(text string)) error {
	f, err := Open(ctx, path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.ReaderAt = f
	if limit > 0 {
		r = io.NewSectionReader(f, 0, limit)
	}
	return scanPrompts(r, math.MaxInt64, func(_ promptID, p PromptRef) { fn(p.Text) })
}
