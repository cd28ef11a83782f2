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
func (a *App) CheckRules(text string) (result RulesCheck, _ error) {
	defer lists(&result)
	return CheckRulesText(text)
}

// CheckRulesText is CheckRules, for the command line.
func CheckRulesText(text string) (RulesCheck, error) {
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
	URL    string `json:"url"`
	PageID int64  `json:"pageId"` // 0: not in the workspace
	Stored bool   `json:"stored"` // a fetched page: its page fields were tested
	RuleVerdict
	// Element is the family index of the element decided (the crawl's first path to the
	// page), "" when no crawl reached it: then only the global rules decide.
	Element  string            `json:"element"`
	Elements []RuleElementTest `json:"elements"` // every recorded path to the page
	Locals   []RuleLocalTest   `json:"locals"`   // the LOCAL blocks of the text, in order
}

// RuleVerdict is a decision and the atom that made it.
type RuleVerdict struct {
	Value     string `json:"value"` // first next last rejected, or untested (waits for the page)
	Potential string `json:"potential"`
	Reason    string `json:"reason"`
	Atom      string `json:"atom"` // the atom that decided, canonical; "" when none did
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	From      int    `json:"from"` // the atom's place in the text, as JavaScript indexes
	To        int    `json:"to"`
}

// RuleElementTest is one path by which a crawl reached the page, and its decision.
type RuleElementTest struct {
	CrawlID int64  `json:"crawlId"`
	Family  string `json:"family"`
	Visited bool   `json:"visited"` // the crawl visited the page as this element
	Locals  []int  `json:"locals"`  // indexes of the LOCAL blocks in force
	// Complete is false when an ancestor is no longer recorded: blocks may be missing.
	Complete bool `json:"complete"`
	RuleVerdict
}

// RuleLocalTest is one LOCAL block: in force for the element decided (and through which
// page), or what the URL would get were it reached through a page the selector matches.
type RuleLocalTest struct {
	Selector string      `json:"selector"` // url:PATTERN
	Line     int         `json:"line"`
	Column   int         `json:"column"`
	From     int         `json:"from"` // the block's place in the text, as JavaScript indexes
	To       int         `json:"to"`
	Active   bool        `json:"active"`
	Through  string      `json:"through"` // the page whose match put it in force
	IfActive RuleVerdict `json:"ifActive"`
}

// TestRules applies rule text to a URL: a crawled page is tested as each path reached it,
// with the LOCAL blocks in force on that path and with what was read of it (title, head,
// body, status...); any other URL with the URL alone and the global rules, and for each
// LOCAL block what it would make of the URL.
func (a *App) TestRules(text, url string) (result RulesTest, _ error) {
	defer lists(&result)
	st := a.ws().st
	return TestRulesOn(context.Background(), graph.New(st.ReadDB()), st, text, url)
}

// TestRulesOn is TestRules over the workspace's graph g and its pages' texts, for the
// command line; a nil g tests the URL alone (no workspace).
func TestRulesOn(ctx context.Context, g *graph.Graph, texts graph.Texts, text, url string) (RulesTest, error) {
	set, err := rules.Parse(text)
	if err != nil {
		return RulesTest{}, &Error{Code: CodeInvalid, Message: err.Error()}
	}
	u, err := urlnorm.Normalize(url)
	if err != nil {
		return RulesTest{}, &Error{Code: CodeInvalid, Message: "not a URL: " + err.Error()}
	}
	t, err := graph.TestRules(ctx, g, set, u, texts)
	if err != nil {
		return RulesTest{}, apiError(err)
	}
	idx := newUTF16Index(text)
	res := RulesTest{URL: u, PageID: t.Subject.Page.ID, Stored: t.Subject.Stored, RuleVerdict: verdict(t.Decision, idx)}
	if t.Element != nil {
		res.Element = t.Element.Family.String()
	}
	for _, e := range t.Elements {
		re := RuleElementTest{CrawlID: e.CrawlID, Family: e.Family.String(), Visited: e.Visited, Complete: e.Complete,
			RuleVerdict: verdict(e.Decision, idx)}
		for i := range set.Locals {
			if e.Local&(1<<i) != 0 {
				re.Locals = append(re.Locals, i)
			}
		}
		res.Elements = append(res.Elements, re)
	}
	for _, l := range t.Locals {
		rl := RuleLocalTest{Selector: l.Block.Selector(), Line: l.Block.Pos.Line, Column: l.Block.Pos.Col,
			From: idx.at(l.Block.Start), To: idx.at(l.Block.End), Active: l.Active, Through: l.Through}
		if !l.Active {
			rl.IfActive = verdict(l.IfActive, idx)
		}
		res.Locals = append(res.Locals, rl)
	}
	return res, nil
}

func verdict(d rules.Decision, idx utf16Index) RuleVerdict {
	v := RuleVerdict{Value: d.Value.String(), Potential: d.Potential.String(), Reason: d.Reason()}
	if d.By != nil {
		v.Atom, v.Line, v.Column = d.By.String(), d.By.Pos.Line, d.By.Pos.Col
		v.From, v.To = idx.at(d.By.Start), idx.at(d.By.End)
	}
	return v
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
