package promote

import (
	"encoding/json"
	"fmt"

	"github.com/credence-mem/credence/markdown"
	"github.com/credence-mem/credence/store"
)

// record is what credence last wrote into one file, decoded from its
// memory_sections row.
type record struct {
	path    string
	found   bool              // a row exists
	written markdown.Section  // confirmed on disk
	pending *markdown.Section // being written; nil when none is
	hash    string            // hash of the file after our last write
	// writtenAt is when credence last wrote the file (Unix ms).
	writtenAt int64
	// handOver lists the beliefs written into the section by the hand-over
	// rule (plan.handOver), kept with the section they were written in.
	handOver []string
}

// storedSection is a memory_sections row's section: what was written, and
// which of its beliefs are there by the hand-over. Rows written before the
// hand-over existed decode with none.
type storedSection struct {
	markdown.Section
	HandOver []string `json:",omitempty"`
}

// loadRecord decodes the record of path; a nil row is an empty record.
func loadRecord(path string, r *store.MemorySection) (record, error) {
	rec := record{path: path}
	if r == nil {
		return rec, nil
	}
	rec.found, rec.hash, rec.writtenAt = true, r.Hash, r.WrittenAt
	if r.Section != "" {
		var ss storedSection
		if err := json.Unmarshal([]byte(r.Section), &ss); err != nil {
			return rec, fmt.Errorf("decode memory section of %s: %w", path, err)
		}
		rec.written, rec.handOver = ss.Section, ss.HandOver
	}
	if r.Pending != "" {
		var p markdown.Section
		if err := json.Unmarshal([]byte(r.Pending), &p); err != nil {
			return rec, fmt.Errorf("decode pending memory section of %s: %w", path, err)
		}
		rec.pending = &p
	}
	return rec, nil
}

// row encodes the record for the store.
func (r record) row() (store.MemorySection, error) {
	section, err := json.Marshal(storedSection{Section: r.written, HandOver: r.handOver})
	if err != nil {
		return store.MemorySection{}, fmt.Errorf("encode memory section of %s: %w", r.path, err)
	}
	row := store.MemorySection{Path: r.path, Section: string(section), Hash: r.hash, WrittenAt: r.writtenAt}
	if r.pending != nil {
		pending, err := json.Marshal(*r.pending)
		if err != nil {
			return store.MemorySection{}, fmt.Errorf("encode pending memory section of %s: %w", r.path, err)
		}
		row.Pending = string(pending)
	}
	return row, nil
}

// onDisk is the section the file is known to hold bullets of. While a write
// is pending the file holds either the old or the new section, so only
// bullets in both count: a bullet missing from the file is then a person's
// deletion whichever version the file holds, never an artefact of a crash
// between the write and its confirmation.
func (r record) onDisk() markdown.Section {
	if r.pending == nil {
		return r.written
	}
	inPending := map[string]bool{}
	for _, list := range [][]markdown.Entry{r.pending.Beliefs, r.pending.Guidelines} {
		for _, e := range list {
			inPending[e.ID] = true
		}
	}
	formerPending := map[string]bool{}
	for _, f := range r.pending.Former {
		formerPending[f.ID] = true
	}
	keep := func(list []markdown.Entry) []markdown.Entry {
		var out []markdown.Entry
		for _, e := range list {
			if inPending[e.ID] {
				out = append(out, e)
			}
		}
		return out
	}
	var s markdown.Section
	s.Beliefs, s.Guidelines = keep(r.written.Beliefs), keep(r.written.Guidelines)
	for _, f := range r.written.Former {
		if formerPending[f.ID] {
			s.Former = append(s.Former, f)
		}
	}
	return s
}

// without returns s minus the entries of the given belief IDs.
func without(s markdown.Section, gone map[string]bool) markdown.Section {
	if len(gone) == 0 {
		return s
	}
	drop := func(list []markdown.Entry) []markdown.Entry {
		var out []markdown.Entry
		for _, e := range list {
			if !gone[e.ID] {
				out = append(out, e)
			}
		}
		return out
	}
	out := markdown.Section{Beliefs: drop(s.Beliefs), Guidelines: drop(s.Guidelines)}
	for _, f := range s.Former {
		if !gone[f.ID] {
			out.Former = append(out.Former, f)
		}
	}
	return out
}

// entryByID indexes the promoted entries of a section.
func entryByID(s markdown.Section) map[string]markdown.Entry {
	out := map[string]markdown.Entry{}
	for _, list := range [][]markdown.Entry{s.Beliefs, s.Guidelines} {
		for _, e := range list {
			out[e.ID] = e
		}
	}
	return out
}

// formerByID indexes the former entries of a section.
func formerByID(s markdown.Section) map[string]markdown.FormerEntry {
	out := map[string]markdown.FormerEntry{}
	for _, f := range s.Former {
		out[f.ID] = f
	}
	return out
}

// emptySection reports whether a section shows nothing.
func emptySection(s markdown.Section) bool {
	return len(s.Beliefs) == 0 && len(s.Guidelines) == 0 && len(s.Former) == 0
}
