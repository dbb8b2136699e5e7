package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progressBar draws a one-line progress bar on a terminal's stderr,
// redrawn in place at most every progressRedraw; on anything else (a pipe,
// a log file, a test buffer) it stays silent so the output stays clean.
type progressBar struct {
	w        io.Writer
	tty      bool
	label    string
	total    int
	done     int
	note     string
	lastDraw time.Time
	width    int
}

const progressRedraw = 100 * time.Millisecond

// newProgressBar starts a bar for total steps.
func newProgressBar(env *Env, label string, total int) *progressBar {
	return &progressBar{w: env.Stderr, tty: isTerminal(env.Stderr), label: label, total: total, width: 30}
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Add advances the bar by n steps and sets the note shown after it.
func (p *progressBar) Add(n int, note string) {
	p.done += n
	p.note = note
	if p.tty && (time.Since(p.lastDraw) >= progressRedraw || p.done >= p.total) {
		p.draw()
	}
}

// Finish draws the bar complete and ends its line.
func (p *progressBar) Finish() {
	if !p.tty {
		return
	}
	p.draw()
	fmt.Fprintln(p.w)
}

func (p *progressBar) draw() {
	p.lastDraw = time.Now()
	frac := 1.0
	if p.total > 0 {
		frac = float64(min(p.done, p.total)) / float64(p.total)
	}
	filled := int(frac * float64(p.width))
	bar := strings.Repeat("█", filled) + strings.Repeat("░", p.width-filled)
	line := fmt.Sprintf("%s %s %3.0f%% %d/%d %s", p.label, bar, frac*100, p.done, p.total, p.note)
	// \r returns to the start; \033[K clears what a longer line left.
	fmt.Fprintf(p.w, "\r%s\033[K", squeezeText(line, 120))
}
