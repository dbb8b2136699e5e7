package markdown

import (
	"bytes"
	"sort"
	"sync"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// layout is a document cut into the parts the splicer works with: a prefix
// that always stays first (a byte-order mark and YAML front matter), and the
// body's lines with what goldmark says about them.
type layout struct {
	doc     []byte
	prefix  int        // length of the prefix in doc
	body    []byte     // doc[prefix:]
	lines   []lineSpan // the body's lines
	literal []bool     // the line is inside a code block or an HTML block
	markers []marker   // marker lines goldmark sees as top-level HTML blocks
	// markerLine[i] reports whether line i is one of markers.
	markerLine []bool
}

// lineSpan is a line of the body: [start, end) includes its "\n", if any.
type lineSpan struct{ start, end int }

// marker is a counted marker line.
type marker struct {
	line  int
	begin bool
}

var bom = []byte("\xEF\xBB\xBF")

// markdownParser is goldmark's CommonMark parser with its block parsers
// only: the splicer needs block structure, not emphasis or links, and
// skipping inline parsing and link-reference stripping (which can only
// remove paragraph text, never create or hide an HTML block) halves the
// cost of a scan.
var markdownParser = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...))
})

// scan parses doc. A marker counts only when it is a whole line that starts
// a top-level HTML block: a marker inside a fenced or indented code block, a
// list item, a block quote or another HTML block is text like any other.
func scan(doc []byte) *layout {
	l := &layout{doc: doc, prefix: prefixLen(doc)}
	l.body = doc[l.prefix:]
	l.lines = splitLines(l.body)
	l.literal = make([]bool, len(l.lines))

	root := markdownParser().Parse(text.NewReader(l.body))
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			l.markLiteral(n.Lines())
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			if n.Parent() == root && n.Lines().Len() > 0 {
				i := l.lineAt(n.Lines().At(0).Start)
				switch string(bytes.TrimSpace(l.lineBytes(i))) {
				case BeginMarker:
					l.markers = append(l.markers, marker{line: i, begin: true})
					return ast.WalkSkipChildren, nil
				case EndMarker:
					l.markers = append(l.markers, marker{line: i})
					return ast.WalkSkipChildren, nil
				}
			}
			l.markLiteral(n.Lines())
			if n.HasClosure() {
				l.markSegment(n.ClosureLine)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	sort.Slice(l.markers, func(i, j int) bool { return l.markers[i].line < l.markers[j].line })
	l.markerLine = make([]bool, len(l.lines))
	for _, m := range l.markers {
		l.markerLine[m.line] = true
	}
	return l
}

func (l *layout) markLiteral(segs *text.Segments) {
	for i := range segs.Len() {
		l.markSegment(segs.At(i))
	}
}

func (l *layout) markSegment(seg text.Segment) {
	if seg.Stop <= seg.Start {
		if seg.Start < len(l.body) {
			l.literal[l.lineAt(seg.Start)] = true
		}
		return
	}
	for i := l.lineAt(seg.Start); i < len(l.lines) && l.lines[i].start < seg.Stop; i++ {
		l.literal[i] = true
	}
}

// lineAt returns the index of the body line holding byte offset off.
func (l *layout) lineAt(off int) int {
	i := sort.Search(len(l.lines), func(i int) bool { return l.lines[i].end > off })
	if i == len(l.lines) {
		i = len(l.lines) - 1
	}
	return i
}

// lineBytes returns line i without its line ending ("\n" or "\r\n").
func (l *layout) lineBytes(i int) []byte {
	b := l.body[l.lines[i].start:l.lines[i].end]
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

func (l *layout) lineText(i int) string { return string(l.lineBytes(i)) }

// splitLines cuts b into lines; the last one may lack a "\n".
func splitLines(b []byte) []lineSpan {
	var lines []lineSpan
	for start := 0; start < len(b); {
		end := bytes.IndexByte(b[start:], '\n')
		if end < 0 {
			end = len(b)
		} else {
			end += start + 1
		}
		lines = append(lines, lineSpan{start, end})
		start = end
	}
	return lines
}

// prefixLen returns the length of what must stay above the section: a UTF-8
// byte-order mark, then a YAML front matter block ("---" on the first line up
// to a closing "---" or "..." line). Front matter is only recognised at the
// very start of a file, so the section goes below it. A closing line without
// a newline (the file is nothing but front matter) does not count.
func prefixLen(doc []byte) int {
	n := 0
	if bytes.HasPrefix(doc, bom) {
		n = len(bom)
	}
	rest := doc[n:]
	first, after, ok := bytes.Cut(rest, []byte("\n"))
	if !ok || string(bytes.TrimSuffix(first, []byte("\r"))) != "---" {
		return n
	}
	off := n + len(first) + 1
	for len(after) > 0 {
		line, next, found := bytes.Cut(after, []byte("\n"))
		end := off + len(line)
		if found {
			end++
		}
		switch string(bytes.TrimRight(line, " \t\r")) {
		case "---", "...":
			if !found {
				return n // the section must start on a line of its own
			}
			return end
		}
		off, after = end, next
	}
	return n // an unclosed block is not front matter
}

// sectionPairs groups the markers: a BEGIN followed directly by an END is a
// section; any other marker is lone.
func (l *layout) sectionPairs() (pairs [][2]int, loneBegin, loneEnd []int) {
	for i := 0; i < len(l.markers); i++ {
		m := l.markers[i]
		switch {
		case m.begin && i+1 < len(l.markers) && !l.markers[i+1].begin:
			pairs = append(pairs, [2]int{m.line, l.markers[i+1].line})
			i++
		case m.begin:
			loneBegin = append(loneBegin, m.line)
		default:
			loneEnd = append(loneEnd, m.line)
		}
	}
	return pairs, loneBegin, loneEnd
}

// isHeadingLine reports whether line i is a Markdown heading outside code.
func (l *layout) isHeadingLine(i int) bool {
	return !l.literal[i] && atxHeadingRe().Match(l.lineBytes(i))
}
