package vocab

import "testing"

// FuzzStructure feeds FTS5 structure records (the vocabulary reads them) to parseStructure.
func FuzzStructure(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0xff, 0, 0, 1, 1, 1, 5, 0, 1, 1, 1, 3, 1, 1, 0, 0, 40})
	f.Add([]byte{0, 0, 0, 0, 0xff, 0, 0, 1, 2, 2, 5, 0, 1, 1, 1, 3, 1, 1, 0, 0, 40, 0, 1, 2, 1, 1, 2, 2, 0, 0, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		segs, ok := parseStructure(b)
		if !ok {
			return
		}
		var spans []originSpan
		for _, s := range segs {
			if s.last < s.first || s.origin2 < s.origin1 {
				t.Fatalf("segment %+v", s)
			}
			spans = addSpan(spans, s)
			if !covers(spans, s) {
				t.Fatalf("segment %+v not covered after it was added: %v", s, spans)
			}
		}
	})
}
