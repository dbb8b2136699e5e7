package transcript

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// benchTranscript builds a transcript of about n lines: exchanges of a
// prompt, a text line, two tool calls with results (one a 4 KB file read)
// and a closing text line.
func benchTranscript(n int) []byte {
	var b bytes.Buffer
	file := strings.Repeat("     1→func main() { fmt.Println(\"hello\") }\\n", 90)
	for i := 0; 7*i < n; i++ { // seven lines per exchange
		head := fmt.Sprintf(`"sessionId":"s","cwd":"/w","uuid":"u%d","timestamp":"2025-06-01T10:00:00.000Z"`, i)
		fmt.Fprintf(&b, `{"type":"user",%s,"message":{"role":"user","content":"step %d: fix the failing test in pkg%d"}}`+"\n", head, i, i%7)
		fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"id":"m%d","role":"assistant","model":"claude","content":[{"type":"text","text":"Looking at pkg%d."}]}}`+"\n", head, i, i%7)
		fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"id":"m%d","role":"assistant","model":"claude","content":[{"type":"tool_use","id":"r%d","name":"Read","input":{"file_path":"/w/pkg/main.go"}}]}}`+"\n", head, i, i)
		fmt.Fprintf(&b, `{"type":"user",%s,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"r%d","content":"%s"}]}}`+"\n", head, i, file)
		fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"id":"m%d","role":"assistant","model":"claude","content":[{"type":"tool_use","id":"b%d","name":"Bash","input":{"command":"go test ./..."}}]}}`+"\n", head, i, i)
		fmt.Fprintf(&b, `{"type":"user",%s,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b%d","content":"ok","is_error":false}]}}`+"\n", head, i)
		fmt.Fprintf(&b, `{"type":"assistant",%s,"message":{"id":"m%d","role":"assistant","model":"claude","content":[{"type":"text","text":"Fixed: the test passes now."}]}}`+"\n", head, i)
	}
	return b.Bytes()
}

func BenchmarkReadExchanges(b *testing.B) {
	data := benchTranscript(5000)
	half := int64(bytes.LastIndex(data[:len(data)/2], []byte(`{"type":"user",`)))
	for _, bc := range []struct {
		name string
		from int64
	}{
		{"5000-lines-from-start", 0},
		{"5000-lines-resume-half", half},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, _, err := ReadExchanges(bytes.NewReader(data), bc.from); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCountPrompts(b *testing.B) {
	data := benchTranscript(5000)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := CountPrompts(bytes.NewReader(data), "s", "step 1: fix the failing test in pkg1"); err != nil {
			b.Fatal(err)
		}
	}
}
