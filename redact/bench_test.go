package redact

import (
	"strings"
	"syscall"
	"testing"
	"time"
)

// benchInput builds about size bytes of transcript-like text: code, prose,
// JSON and base64 from the look-alike corpus, with one secret case in every
// twenty when withSecrets is set. The unclosed <private> case is left out:
// it would redact everything after it and leave nothing to scan.
func benchInput(b *testing.B, size int, withSecrets bool) string {
	clean := loadCorpus(b, "testdata/lookalikes.txt")
	var secrets []corpusCase
	for _, c := range loadCorpus(b, "testdata/secrets.txt") {
		if c.name != "private-unclosed" {
			secrets = append(secrets, c)
		}
	}
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		sb.WriteString(clean[i%len(clean)].text)
		sb.WriteByte('\n')
		if withSecrets && i%20 == 19 {
			sb.WriteString(secrets[(i/20)%len(secrets)].text)
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// cpuTime returns the user and system CPU time used by the process so far.
// Benchmarks report it per operation because wall time on a shared machine
// says more about the neighbours than about the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs op b.N times and reports CPU milliseconds per operation.
func loopCPU(b *testing.B, op func()) {
	start := cpuTime()
	for b.Loop() {
		op()
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func BenchmarkString(b *testing.B) {
	for _, bc := range []struct {
		name    string
		size    int
		secrets bool
	}{
		{"clean-10MB", 10 << 20, false},
		{"mixed-10MB", 10 << 20, true},
		{"prompt-2KB", 2 << 10, true},
	} {
		in := benchInput(b, bc.size, bc.secrets)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			loopCPU(b, func() { String(in) })
		})
	}
}

func BenchmarkContains(b *testing.B) {
	in := benchInput(b, 10<<20, false)
	b.SetBytes(int64(len(in)))
	loopCPU(b, func() { Contains(in) })
}
