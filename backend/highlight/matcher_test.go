package highlight

import "testing"

func TestMatcher(t *testing.T) {
	m := NewMatcher(`card index -film otlett~1 "universal classification"`)
	for _, tc := range []struct {
		text string
		want float64
	}{
		{"", 0},
		{"Index cards of Paul Otlet", 3.0 / 5}, // stem forms, fold, approximate
		{"a film", 0},                          // negated words do not count
		{"the Universal Decimal Classification of cards and indexes", 4.0 / 5}, // phrase words count one by one
	} {
		if got := m.Score(tc.text); got != tc.want {
			t.Errorf("Score(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
	if !NewMatcher("-x site:a.test").Empty() {
		t.Error("a query without positive words should be empty")
	}
}
