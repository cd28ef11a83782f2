package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"mundaneum/app"
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

var errRulesInvalid = errors.New("the rules do not parse")

// rulesCheck prints the rules in canonical form, or their error; --json prints what the
// window's editor gets (app.RulesCheck).
func (e *env) rulesCheck(text string) error {
	if e.json {
		out, err := app.CheckRulesText(text)
		if err != nil {
			return err
		}
		if err := e.printJSON(out); err != nil {
			return err
		}
		if !out.OK {
			return reported{errRulesInvalid}
		}
		return nil
	}
	set, err := rules.Parse(text)
	if err != nil {
		return ruleError(text, err)
	}
	fmt.Fprintln(e.stdout, set.String())
	return nil
}

func (e *env) rulesTest(ctx context.Context, text string, urls []string) error {
	if _, err := rules.Parse(text); err != nil {
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
	out := make([]app.RulesTest, 0, len(urls))
	for _, raw := range urls {
		u, err := urlnorm.Normalize(raw)
		if err != nil {
			return usageError{fmt.Errorf("%s: %w", raw, err)}
		}
		t, err := app.TestRulesOn(ctx, g, texts, text, u)
		if err != nil {
			return err
		}
		out = append(out, t)
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
			fmt.Fprintf(e.stdout, "         also reached as %s in crawl %d: %s (%s)\n", el.Family, el.CrawlID, el.Value, el.Reason)
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
