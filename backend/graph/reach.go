package graph

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"mundaneum/backend/rules"
)

// Reach is one element of a page (the page reached along one path of a crawl) with the
// LOCAL blocks of a rule set in force for it: a block holds for the elements reached through
// an element its selector matches, so the blocks in force follow from the element's
// ancestors, which its family index names.
type Reach struct {
	CrawlID int64
	Family  rules.Family
	Visited bool
	// Local has bit i set when set.Locals[i] is in force; Through[i] is then the URL of
	// the ancestor whose match put it in force (the nearest to the seed).
	Local   uint64
	Through map[int]string
	// Complete is false when an ancestor's element is no longer recorded (its page was
	// deleted): the blocks it would have put in force are unknown.
	Complete bool
}

// Reaches returns the elements of a page, up to limit, each with the LOCAL blocks of set
// in force for it, computed as the crawl computes them: each ancestor, from the seed down
// to the parent, puts in force the blocks whose selector matches it (its URL and depth).
func (g *Graph) Reaches(ctx context.Context, set *rules.Set, id int64, limit int) ([]Reach, error) {
	es, err := g.ElementsOf(ctx, 0, id, limit)
	if err != nil {
		return nil, err
	}
	out := make([]Reach, 0, len(es))
	for _, e := range es {
		fam, err := rules.ParseFamily(e.Family)
		if err != nil {
			continue // a family index that does not decode is not an element to reason about
		}
		r := Reach{CrawlID: e.CrawlID, Family: fam, Visited: e.Visited, Through: map[int]string{}, Complete: true}
		for k := 1; k < len(fam); k++ {
			var url string
			err := g.db.QueryRowContext(ctx, `SELECT p.url FROM elements e JOIN pages p ON p.id = e.page_id
				WHERE e.crawl_id = ? AND e.family = ?`, e.CrawlID, fam[:k].Encode()).Scan(&url)
			if errors.Is(err, sql.ErrNoRows) {
				r.Complete = false
				break
			}
			if err != nil {
				return nil, fmt.Errorf("elements: %w", err)
			}
			before := r.Local
			r.Local = set.Enter(&rules.Element{URL: url, Depth: k - 1}, r.Local)
			for i := range set.Locals {
				if r.Local&^before&(1<<i) != 0 {
					r.Through[i] = url
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// RuleTest is what a rule set makes of a URL or of a page of the workspace.
type RuleTest struct {
	Subject Subject
	// Decision is for the element the crawl visited the page as (the first recorded), with
	// the LOCAL blocks in force for it; for a URL no crawl reached, the global rules' alone.
	Decision rules.Decision
	// Element is the element decided, nil for the URL alone.
	Element *ElementTest
	// Elements are every recorded element of the page (up to a bound), each decided with
	// its own blocks: the same URL reached by two paths may be decided two ways.
	Elements []ElementTest
	// Locals are the set's LOCAL blocks, in order.
	Locals []LocalTest
}

// ElementTest is one element of the page and what the rules make of it.
type ElementTest struct {
	Reach
	Decision rules.Decision
}

// LocalTest says whether a LOCAL block holds for the element decided and, when it does not,
// what the URL would get if it were reached through a page the block's selector matches.
type LocalTest struct {
	Block    *rules.Local
	Active   bool
	Through  string         // the ancestor that put it in force
	IfActive rules.Decision // the global rules and this block alone
}

// maxReaches bounds the elements of a page that a rule test decides.
const maxReaches = 50

// TestRules applies set to url: a page of the workspace (g non-nil) as each element it was
// reached as, with the LOCAL blocks that its ancestors put in force, and with what was read
// of it when it was fetched (texts reads its body); any other URL by its URL alone.
func TestRules(ctx context.Context, g *Graph, set *rules.Set, url string, texts Texts) (RuleTest, error) {
	t := RuleTest{Subject: Subject{Element: &rules.Element{URL: url}}}
	if g != nil {
		s, err := g.SubjectOf(ctx, url, texts)
		if err != nil {
			return t, err
		}
		t.Subject = s
	}
	// Each decision gets its own copy of the element (fields are cached as they are read),
	// with the depth of the path that reached it.
	base := *t.Subject.Element
	decide := func(depth int, local uint64) rules.Decision {
		e := base
		if depth >= 0 {
			e.Depth = depth
		}
		return set.Decide(&e, local)
	}
	if g != nil && t.Subject.Page.ID != 0 {
		rs, err := g.Reaches(ctx, set, t.Subject.Page.ID, maxReaches)
		if err != nil {
			return t, err
		}
		for _, r := range rs {
			t.Elements = append(t.Elements, ElementTest{Reach: r, Decision: decide(len(r.Family)-1, r.Local)})
		}
	}
	if len(t.Elements) > 0 {
		t.Element = &t.Elements[0]
		t.Decision = t.Element.Decision
	} else {
		t.Decision = decide(-1, 0)
	}
	for i, l := range set.Locals {
		lt := LocalTest{Block: l}
		if t.Element != nil && t.Element.Local&(1<<i) != 0 {
			lt.Active, lt.Through = true, t.Element.Through[i]
		} else {
			depth := -1
			if t.Element != nil {
				depth = len(t.Element.Family) - 1
			}
			lt.IfActive = decide(depth, 1<<i)
		}
		t.Locals = append(t.Locals, lt)
	}
	return t, nil
}
