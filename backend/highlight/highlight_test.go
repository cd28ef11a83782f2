package highlight

import (
	"strings"
	"testing"

	"mundaneum/backend/query"
	"mundaneum/backend/vocab"
)

func TestHitWords(t *testing.T) {
	h := New(query.Parse("cards otlet connect").Root, DefaultForms, nil)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Index Cards", 1},
		{"Paul Otlet's card index: CARDS, cards and connections", 4}, // card and cards are two forms
		{"http://a.test/otlet/cards.html", 2},
		{"Otlet et les fiches — cards", 2}, // not ASCII: the slow path
		{"", 0},
		{"nothing here", 0},
	} {
		if got := h.Count(tc.text); got != tc.want {
			t.Errorf("hitWords(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

func TestStemForms(t *testing.T) {
	for _, tc := range []struct {
		w    string
		want []string // must be among the forms
		not  []string
	}{
		{"connections", []string{"connect", "connected", "connecting", "connection"}, []string{"connector", "connections"}},
		{"connect", []string{"connects", "connected", "connection", "connections"}, []string{"connectivity", "connect"}},
		{"cat", []string{"cats"}, []string{"catalog", "cat"}},
		{"running", []string{"run", "runs"}, []string{"runner", "running"}},
		{"making", []string{"make", "makes"}, nil},
	} {
		got := " " + strings.Join(Forms(tc.w, 30), " ") + " "
		for _, v := range tc.want {
			if !strings.Contains(got, " "+v+" ") {
				t.Errorf("Forms(%q) = %s, want %s among them", tc.w, got, v)
			}
		}
		for _, v := range tc.not {
			if strings.Contains(got, " "+v+" ") {
				t.Errorf("Forms(%q) = %s, must not hold %s", tc.w, got, v)
			}
		}
	}
	for _, w := range []string{"", "ab", "123", "naïve", strings.Repeat("a", 40)} {
		if v := Forms(w, 10); v != nil {
			t.Errorf("Forms(%q) = %v", w, v)
		}
	}
}

func TestApproximateHighlight(t *testing.T) {
	// Without the terms the query was asked with: every token within the distance.
	h := New(query.Parse("otlett~1 card").Root, DefaultForms, nil)
	for tok, want := range map[string]bool{"otlet": true, "otlett": true, "otto": false, "card": true, "outlet": false} {
		if got := h.Match(tok); got != want {
			t.Errorf("match(%q) = %v, want %v", tok, got, want)
		}
	}
	// With them: those terms (what the query matched), and no edit distance is computed.
	h = New(query.Parse("Otlett~1 card").Root, DefaultForms, vocab.Expansions{"otlett~1": {"otlet"}})
	for tok, want := range map[string]bool{"otlet": true, "otlett": true, "otlets": false, "card": true, "outlet": false} {
		if got := h.Match(tok); got != want {
			t.Errorf("with terms: match(%q) = %v, want %v", tok, got, want)
		}
	}
	if len(h.approx) != 0 {
		t.Errorf("with terms: %d approximate words compared by distance", len(h.approx))
	}
}
