package summary

import "strings"

// textOut joins pieces of text, whitespace-collapsed, up to max bytes.
type textOut struct {
	b    strings.Builder
	max  int
	full bool
}

func (t *textOut) add(s string) {
	if t.full {
		return
	}
	if collapsed(s) && t.b.Len()+len(s)+1 <= t.max {
		if t.b.Len() > 0 {
			t.b.WriteByte(' ')
		}
		t.b.WriteString(s) // summaries' text is collapsed already: one copy
		return
	}
	for _, w := range strings.Fields(s) {
		need := len(w)
		if t.b.Len() > 0 {
			need++
		}
		if t.b.Len()+need > t.max {
			t.full = true
			return
		}
		if t.b.Len() > 0 {
			t.b.WriteByte(' ')
		}
		t.b.WriteString(w)
	}
}

func (t *textOut) String() string { return t.b.String() }

// joinText joins non-empty pieces with spaces, capped at max bytes.
func joinText(max int, parts ...string) string {
	t := textOut{max: max}
	for _, p := range parts {
		t.add(p)
	}
	return t.String()
}

// collapsed reports whether s is non-empty words separated by single spaces.
func collapsed(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t', '\n', '\r', '\f', '\v':
			return false
		case ' ':
			if s[i+1] == ' ' {
				return false
			}
		}
	}
	return true
}
