package app

import (
	"context"
	"errors"
	"unicode/utf16"
	"unicode/utf8"

	"mundaneum/backend/graph"
	"mundaneum/backend/rules"
	"mundaneum/backend/urlnorm"
)

// RuleSpan is a stretch of rule text for the editor's highlighting: its kind and its
// offsets as JavaScript indexes (UTF-16 code units), end exclusive.
type RuleSpan struct {
	Kind string `json:"kind"` // category field punct keyword glob regex compare comment error
	From int    `json:"from"`
	To   int    `json:"to"`
}

// RuleError is a syntax error in rule text.
type RuleError struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// RulesCheck is what the editor shows of rule text as it is typed.
type RulesCheck struct {
	OK        bool       `json:"ok"`
	Canonical string     `json:"canonical"`
	NeedsPage bool       `json:"needsPage"` // some rule reads the page: decided after the fetch
	Error     *RuleError `json:"error"`
	Spans     []RuleSpan `json:"spans"`
}

// CheckRules parses rule text: its highlighting, and its canonical form or its error.
func (a *App) CheckRules(text string) (RulesCheck, error) {
	if len(text) > rules.MaxText {
		return RulesCheck{}, &Error{Code: CodeInvalid, Message: "rule text is longer than 64 KiB"}
	}
	spans, set, err := rules.Highlight(text)
	res := RulesCheck{OK: err == nil, Spans: make([]RuleSpan, 0, len(spans))}
	u := newUTF16Index(text)
	for _, s := range spans {
		res.Spans = append(res.Spans, RuleSpan{Kind: string(s.Kind), From: u.at(s.Start), To: u.at(s.End)})
	}
	var re *rules.Error
	switch {
	case errors.As(err, &re):
		res.Error = &RuleError{Line: re.Pos.Line, Column: re.Pos.Col, Message: re.Msg}
	case err != nil:
		return res, apiError(err)
	default:
		res.Canonical, res.NeedsPage = set.String(), set.NeedsPage()
	}
	return res, nil
}

// RulesTest says what rules make of one URL or crawled page, and which atom decided.
type RulesTest struct {
	URL       string `json:"url"`
	PageID    int64  `json:"pageId"` // 0: not in the workspace
	Stored    bool   `json:"stored"` // a fetched page: its page fields were tested
	Value     string `json:"value"`  // first next last rejected, or untested (waits for the page)
	Potential string `json:"potential"`
	Reason    string `json:"reason"`
	Atom      string `json:"atom"` // the atom that decided, canonical; "" when none did
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	From      int    `json:"from"` // the atom's place in the text, as JavaScript indexes
	To        int    `json:"to"`
}

// TestRules applies rule text to a URL: a crawled page is tested with what was read of it
// (title, head, body, status...), any other URL with the URL alone.
func (a *App) TestRules(text, url string) (RulesTest, error) {
	set, err := rules.Parse(text)
	if err != nil {
		return RulesTest{}, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	u, err := urlnorm.Normalize(url)
	if err != nil {
		return RulesTest{}, &Error{Code: CodeInvalid, Message: "not a URL: " + err.Error()}
	}
	st := a.ws().st
	sub, err := graph.New(st.ReadDB()).SubjectOf(context.Background(), u, st)
	if err != nil {
		return RulesTest{}, apiError(err)
	}
	d := set.Decide(sub.Element, 0)
	res := RulesTest{URL: u, PageID: sub.Page.ID, Stored: sub.Stored, Value: d.Value.String(), Reason: d.Reason(),
		Potential: d.Potential.String()}
	if d.By != nil {
		idx := newUTF16Index(text)
		res.Atom, res.Line, res.Column = d.By.String(), d.By.Pos.Line, d.By.Pos.Col
		res.From, res.To = idx.at(d.By.Start), idx.at(d.By.End)
	}
	return res, nil
}

// utf16Index turns byte offsets of a text into UTF-16 offsets.
type utf16Index struct{ text string }

func newUTF16Index(text string) utf16Index { return utf16Index{text} }

func (u utf16Index) at(byteOff int) int {
	n := 0
	for _, r := range u.text[:min(byteOff, len(u.text))] {
		if r == utf8.RuneError {
			n++
			continue
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return n
}
