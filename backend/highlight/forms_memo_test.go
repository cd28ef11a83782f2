package highlight

import (
	"slices"
	"testing"
)

// TestFormsKept: the forms kept for words asked before are those stemming finds, and a
// caller that changes the slice it got does not change what the next caller gets.
func TestFormsKept(t *testing.T) {
	for _, w := range []string{"connections", "making", "running", "happy", "cat", "x", "über", "connections"} {
		want := variants(w, DefaultForms)
		for range 2 {
			got := Forms(w, DefaultForms)
			if !slices.Equal(got, want) {
				t.Fatalf("Forms(%q) = %q, want %q", w, got, want)
			}
			for i := range got {
				got[i] = "changed"
			}
		}
	}
	if got := Forms("connections", 2); len(got) != 2 {
		t.Errorf("Forms with a smaller cap: %q", got)
	}
}
