package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/backend/graph"
	"mundaneum/backend/rules"
	"mundaneum/backend/urlnorm"
)

const rulesHelp = `Rules are the W3C webbot's constraint language. An atom is CATEGORY FIELD:PATTERN:

  *  imperative   followed first and always (even outside the scope)
  +  directional  followed next, unless a rejection rule matches
  -  rejection    never followed, unless an imperative rule matches
  ?  last resort  followed only when nothing matching * or + is left

Fields known before the fetch: url host path anchor depth; after it: status type title
head body date (Last-Modified). A pattern is a glob (* any run, ? one character, matching
the whole field, case-insensitive: *.mit.edu/* matches http://web.mit.edu/people/),
"a quoted glob", a /regular expression/ (RE2, unanchored), or <N <=N >N >=N on depth and
status. Rules combine over lists of pages: {AND r1 r2 ...}, {OR r1 r2 ...}, {NOT r1 r2}
(the pages of r1 not returned by r2; {NOT r} the pages r does not return).
{LOCAL url:PATTERN rules...} adds rules for the pages reached through a matching page.
# starts a comment. Several rules: an imperative match wins, then a rejection, then +, then ?.`

// readRules takes rule text from an argument, or from a file with @FILE (- reads stdin).
func readRules(arg string) (string, error) {
	name, ok := strings.CutPrefix(arg, "@")
	if !ok {
		return arg, nil
	}
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", usageError{fmt.Errorf("rules: %w", err)}
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, rules.MaxText+1))
	if err != nil {
		return "", fmt.Errorf("rules: %w", err)
	}
	return string(b), nil
}

// ruleError adds the line of text the error points at, with a caret under the column.
func ruleError(text string, err error) error {
	var re *rules.Error
	if !errors.As(err, &re) {
		return err
	}
	lines := strings.Split(text, "\n")
	if re.Pos.Line < 1 || re.Pos.Line > len(lines) {
		return fmt.Errorf("rules:%w", err)
	}
	line := strings.ReplaceAll(lines[re.Pos.Line-1], "\t", " ")
	caret := strings.Repeat(" ", max(0, re.Pos.Col-1)) + "^"
	return fmt.Errorf("rules:%w\n  %s\n  %s", err, line, caret)
}

func (e *env) rulesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rules",
		Short: "Check rule text, or test it against a URL or a crawled page",
		Long:  rulesHelp,
	}
	check := &cobra.Command{
		Use:   "check TEXT|@FILE",
		Short: "Print the rules in canonical form, or the error with its line and column",
		Long:  "Print the rules in canonical form, or the error with its line and column (exit 1).\n\n" + rulesHelp,
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := readRules(args[0])
			if err != nil {
				return err
			}
			return e.rulesCheck(text)
		},
	}
	test := &cobra.Command{
		Use:   "test TEXT|@FILE URL...",
		Short: "Say what the rules make of each URL (with a crawled page's stored fields) and which atom decided",
		Args:  usageArgs(cobra.MinimumNArgs(2)),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := readRules(args[0])
			if err != nil {
				return err
			}
			return e.rulesTest(cmd.Context(), text, args[1:])
		},
	}
	// A rule that starts with - reads as a flag: say how to pass it.
	hint := func(_ *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (rule text that starts with - goes after --: mundaneum rules check -- '-url:*x*')", err)}
	}
	check.SetFlagErrorFunc(hint)
	test.SetFlagErrorFunc(hint)
	cmd.AddCommand(check, test)
	return cmd
}

type ruleErrorJSON struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type rulesCheckJSON struct {
	OK        bool           `json:"ok"`
	Canonical string         `json:"canonical,omitempty"`
	NeedsPage bool           `json:"needsPage,omitempty"`
	Error     *ruleErrorJSON `json:"error,omitempty"`
}

var errRulesInvalid = errors.New("the rules do not parse")

func (e *env) rulesCheck(text string) error {
	set, err := rules.Parse(text)
	if e.json {
		out := rulesCheckJSON{OK: err == nil}
		var re *rules.Error
		if errors.As(err, &re) {
			out.Error = &ruleErrorJSON{Line: re.Pos.Line, Column: re.Pos.Col, Message: re.Msg}
		} else if err == nil {
			out.Canonical, out.NeedsPage = set.String(), set.NeedsPage()
		}
		if jerr := e.printJSON(out); jerr != nil {
			return jerr
		}
		if err != nil {
			return reported{errRulesInvalid}
		}
		return nil
	}
	if err != nil {
		return ruleError(text, err)
	}
	fmt.Fprintln(e.stdout, set.String())
	return nil
}

type ruleTestJSON struct {
	URL    string `json:"url"`
	Stored bool   `json:"stored"` // a fetched page of the workspace: its page fields were tested
	ruleVerdictJSON
	Element  string            `json:"element,omitempty"` // the family index decided: the crawl's first path to the page
	Elements []ruleElementJSON `json:"elements,omitempty"`
	Locals   []ruleLocalJSON   `json:"locals,omitempty"`
}

type ruleVerdictJSON struct {
	Value     string `json:"value"`
	Potential string `json:"potential,omitempty"` // when the value waits for the page
	Reason    string `json:"reason"`
	Atom      string `json:"atom,omitempty"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
}

type ruleElementJSON struct {
	Crawl    int64  `json:"crawl"`
	Family   string `json:"family"`
	Visited  bool   `json:"visited"`
	Locals   []int  `json:"locals"` // the LOCAL blocks in force, numbered from 1
	Complete bool   `json:"complete"`
	ruleVerdictJSON
}

type ruleLocalJSON struct {
	Block    int              `json:"block"` // numbered from 1, in the text's order
	Selector string           `json:"selector"`
	Line     int              `json:"line"`
	Column   int              `json:"column"`
	Active   bool             `json:"active"`
	Through  string           `json:"through,omitempty"`
	IfActive *ruleVerdictJSON `json:"ifActive,omitempty"` // what the block makes of the URL when in force
}

func verdictJSON(d rules.Decision) ruleVerdictJSON {
	r := ruleVerdictJSON{Value: d.Value.String(), Reason: d.Reason()}
	if d.Value == rules.Untested {
		r.Potential = d.Potential.String()
	}
	if d.By != nil {
		r.Atom, r.Line, r.Column = d.By.String(), d.By.Pos.Line, d.By.Pos.Col
	}
	return r
}

func (e *env) rulesTest(ctx context.Context, text string, urls []string) error {
	set, err := rules.Parse(text)
	if err != nil {
		return ruleError(text, err)
	}
	var g *graph.Graph
	var texts graph.Texts
	if path, err := e.path(); err == nil {
		if _, err := os.Stat(path); err == nil {
			st, err := e.open(ctx, true)
			if err != nil {
				return err
			}
			defer st.Close()
			g, texts = graph.New(st.ReadDB()), st
		}
	}
	var out []ruleTestJSON
	for _, raw := range urls {
		u, err := urlnorm.Normalize(raw)
		if err != nil {
			return usageError{fmt.Errorf("%s: %w", raw, err)}
		}
		t, err := graph.TestRules(ctx, g, set, u, texts)
		if err != nil {
			return err
		}
		r := ruleTestJSON{URL: u, Stored: t.Subject.Stored, ruleVerdictJSON: verdictJSON(t.Decision)}
		if t.Element != nil {
			r.Element = t.Element.Family.String()
		}
		for _, el := range t.Elements {
			ej := ruleElementJSON{Crawl: el.CrawlID, Family: el.Family.String(), Visited: el.Visited, Locals: []int{},
				Complete: el.Complete, ruleVerdictJSON: verdictJSON(el.Decision)}
			for i := range set.Locals {
				if el.Local&(1<<i) != 0 {
					ej.Locals = append(ej.Locals, i+1)
				}
			}
			r.Elements = append(r.Elements, ej)
		}
		for i, l := range t.Locals {
			lj := ruleLocalJSON{Block: i + 1, Selector: l.Block.Selector(), Line: l.Block.Pos.Line, Column: l.Block.Pos.Col,
				Active: l.Active, Through: l.Through}
			if !l.Active {
				v := verdictJSON(l.IfActive)
				lj.IfActive = &v
			}
			r.Locals = append(r.Locals, lj)
		}
		out = append(out, r)
	}
	if e.json {
		return e.printJSON(out)
	}
	for _, r := range out {
		where := "the URL alone"
		switch {
		case r.Element != "":
			where = "the stored page reached as element " + r.Element
			if !r.Stored {
				where = "the URL reached as element " + r.Element
			}
		case r.Stored:
			where = "the stored page"
		}
		fmt.Fprintf(e.stdout, "%-8s %s\n         %s (from %s", r.Value, r.URL, r.Reason, where)
		if r.Line > 0 {
			fmt.Fprintf(e.stdout, "; atom at %d:%d", r.Line, r.Column)
		}
		fmt.Fprintln(e.stdout, ")")
		for _, el := range r.Elements[min(1, len(r.Elements)):] {
			fmt.Fprintf(e.stdout, "         also reached as %s in crawl %d: %s (%s)\n", el.Family, el.Crawl, el.Value, el.Reason)
		}
		for _, l := range r.Locals {
			switch {
			case l.Active:
				fmt.Fprintf(e.stdout, "         LOCAL %s (%d:%d) in force: reached through %s\n", l.Selector, l.Line, l.Column, l.Through)
			case r.Element != "":
				fmt.Fprintf(e.stdout, "         LOCAL %s (%d:%d) not in force on this path; through a page it matches: %s\n",
					l.Selector, l.Line, l.Column, l.IfActive.Value)
			default:
				fmt.Fprintf(e.stdout, "         LOCAL %s (%d:%d) could apply: reached through a page it matches, %s (%s)\n",
					l.Selector, l.Line, l.Column, l.IfActive.Value, l.IfActive.Reason)
			}
		}
	}
	return nil
}
