package rotfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFile(t *testing.T) {
	line := []byte(strings.Repeat("x", 99) + "\n")
	t.Run("rotates past max while open", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "agent.log")
		r, err := Open(path, 1000)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for i := 0; i < 25; i++ {
			if _, err := r.Write(line); err != nil {
				t.Fatal(err)
			}
		}
		cur, _ := os.ReadFile(path)
		old, _ := os.ReadFile(path + ".1")
		if len(cur) > 1000 || len(old) > 1000 || len(old) == 0 {
			t.Errorf("log %d bytes, log.1 %d bytes; want both at most 1000 and log.1 written", len(cur), len(old))
		}
		if n := bytes.Count(cur, line); n != 5 {
			t.Errorf("log holds %d lines after 25 writes of 100 bytes at max 1000", n)
		}
	})
	t.Run("follows a rotation by another process", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "hook.log")
		r, err := Open(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		r.Write([]byte("before\n"))
		if err := os.Rename(path, path+".1"); err != nil {
			t.Fatal(err)
		}
		r.Write([]byte("after\n"))
		cur, _ := os.ReadFile(path)
		old, _ := os.ReadFile(path + ".1")
		if string(cur) != "after\n" || string(old) != "before\n" {
			t.Errorf("log %q, log.1 %q; want the line after the rotation in the new file", cur, old)
		}
	})
	t.Run("closed", func(t *testing.T) {
		r, err := Open(filepath.Join(t.TempDir(), "x.log"), 0)
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
		if _, err := r.Write(line); err == nil {
			t.Error("Write after Close succeeded")
		}
	})
}
