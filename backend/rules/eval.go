package rules

import (
	"strconv"
	"strings"
)

// truth is the outcome of a rule for one element: it returns the element (yes), it does
// not (no), or that depends on fields not known yet (unknown: the page is not fetched).
type truth uint8

const (
	no truth = iota
	yes
	unknown
)

// result is a rule's outcome for one element: whether the rule returns it, the tier it
// gives (the strongest category among the atoms that returned it; Untested for none, as
// for a rejection atom that let it pass), the atom that decided, and why: the outcomes of
// the atoms that made the rule's outcome, each as the atom alone gave it.
type result struct {
	t    truth
	tier Value
	by   *Atom
	why  []fact
}

// fact is one atom's own outcome for an element: what an explanation names.
type fact struct {
	a *Atom
	t truth
}

// String says what the atom did: matched, did not match, or needs the fetched page.
func (f fact) String() string {
	switch {
	case f.t == unknown:
		return f.a.String() + " needs the fetched page"
	case (f.t == yes) != (f.a.Cat == Rejection):
		return f.a.String() + " matched"
	}
	return f.a.String() + " did not match"
}

// joined is the facts of rs, in order.
func joined(rs ...result) []fact {
	var out []fact
	for _, r := range rs {
		out = append(out, r.why...)
	}
	return out
}

// matches reports whether the atom's pattern matches the element's field; known is false
// when the field needs a fetch that has not happened.
func (a *Atom) matches(e *Element) (matched, known bool) {
	if a.Field.Stage == AfterFetch && !e.Fetched {
		return false, false
	}
	return a.Pat.match(e.value(a.Field)), true
}

func (p *Pattern) match(v string) bool {
	switch p.Kind {
	case Regex:
		return p.re.MatchString(v)
	case Compare:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return false
		}
		switch p.op {
		case "<":
			return n < p.n
		case "<=":
			return n <= p.n
		case ">":
			return n > p.n
		default:
			return n >= p.n
		}
	}
	return p.glob.match(v)
}

// eval applies an atom to one element, as the paper applies it to a list: `*`, `+` and
// `?` atoms return the elements they match, `-` atoms those they do not.
func (a *Atom) eval(e *Element) result {
	m, known := a.matches(e)
	r := result{t: no, by: a}
	switch {
	case !known:
		r = result{t: unknown, tier: a.Cat.tier(), by: a}
	case a.Cat == Rejection && !m, a.Cat != Rejection && m:
		r = result{t: yes, tier: a.Cat.tier(), by: a}
	}
	r.why = []fact{{a, r.t}}
	return r
}

func (o *Op) eval(e *Element) result {
	switch o.Kind {
	case Or:
		// Returned by any: the strongest tier among the rules that return it, explained by
		// that rule. Returned by none: every rule's reason.
		var best result
		var rs []result
		found := false
		for _, n := range o.Args {
			r := n.eval(e)
			rs = append(rs, r)
			switch {
			case r.t == yes && (best.t != yes || stronger(r.tier, best.tier)):
				best, found = r, true
			case r.t == unknown && best.t != yes && (!found || stronger(r.tier, best.tier)):
				best, found = r, true
			}
		}
		if found {
			return best
		}
		out := result{t: no, why: joined(rs...), by: rs[0].by}
		for _, f := range out.why {
			if f.a.Cat == Rejection && f.t == no { // a rejection that matched: the active reason
				out.by = f.a
				break
			}
		}
		return out
	case And:
		// Returned by every rule, each its reason: decided by the first that does not.
		out := result{t: yes}
		var rs []result
		for _, n := range o.Args {
			r := n.eval(e)
			switch r.t {
			case no:
				return r
			case unknown:
				out.t = unknown
			}
			rs = append(rs, r)
			if out.by == nil || stronger(r.tier, out.tier) {
				out.tier, out.by = r.tier, r.by
			}
		}
		out.why = joined(rs...)
		return out
	default: // Not
		r1 := result{t: yes}
		args := o.Args
		if len(args) == 2 {
			r1 = args[0].eval(e)
			if r1.t == no {
				return r1
			}
			args = args[1:]
		}
		r2 := args[0].eval(e)
		switch r2.t {
		case yes:
			return result{t: no, by: r2.by, why: r2.why}
		case unknown:
			return result{t: unknown, tier: r1.tier, by: r2.by, why: r2.why}
		}
		if len(o.Args) == 1 {
			return result{t: yes, by: r2.by, why: r2.why} // in the list, not returned by the rule
		}
		r1.why = joined(r1, r2)
		return r1
	}
}

// Decision is what a rule set made of an element.
type Decision struct {
	// Value is First, Next, Last or Rejected; Untested when the page's fields are needed
	// to decide (a decision before the fetch), with Potential the value the element gets
	// if they come out in its favour (its queue tier).
	Value     Value
	Potential Value
	// By is the atom that decided, nil when no atom did (nothing selected the element, or
	// the set has only rejections and none matched).
	By *Atom
	// Rule is the top-level rule (or LOCAL block rule) that decided, nil with By (and nil
	// when several rules together did: none selected the element).
	Rule Node
	// why are the atoms' own outcomes that made the value, by top-level rule.
	why []ruleFacts
}

// ruleFacts are a top-level rule's facts.
type ruleFacts struct {
	rule  Node
	facts []fact
}

// Reason says in words why the element got its value: the atoms that made it, each with
// what it did to this element (matched, did not match), after its rule when the rule is a
// combination.
func (d Decision) Reason() string {
	by := ""
	if d.By != nil {
		by = d.By.String()
	}
	switch {
	case d.Value == Untested:
		if by != "" {
			return "needs the fetched page: " + by + " reads " + d.By.Field.Name
		}
		return "needs the fetched page"
	case d.By == nil && d.Value == Rejected:
		return "no rule selects it"
	case d.By == nil:
		return "no rejection rule matches"
	case len(d.why) == 0: // a Decision made by hand, without its facts
		return by
	}
	parts := make([]string, 0, len(d.why))
	for _, rf := range d.why {
		fs := make([]string, len(rf.facts))
		for i, f := range rf.facts {
			fs[i] = f.String()
		}
		text := strings.Join(fs, " and ")
		if a, ok := rf.rule.(*Atom); rf.rule != nil && (!ok || len(rf.facts) != 1 || rf.facts[0].a != a) {
			text = rf.rule.String() + ": " + text
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "; ")
}

// Decide applies the set's global rules, and the local blocks whose bits are set in local,
// to one element. A single rule decides as the paper applies a rule to a list: the element
// is followed when the rule returns it. Several rules decide as the paper's rule atoms do:
// an element returned by an imperative rule is first, whatever else matches; one matched
// by a top-level rejection atom is rejected; one returned by a directional rule (or by any
// combination) is next, by a last-resort rule last; and one that no rule returns is
// rejected, except when the rules are all rejection atoms (then it is next).
func (s *Set) Decide(e *Element, local uint64) Decision {
	if s.Empty() {
		return Decision{Value: Next, Potential: Next}
	}
	var items []Node
	items = append(items, s.Rules...)
	for i, l := range s.Locals {
		if local&(1<<i) != 0 {
			items = append(items, l.Rules...)
		}
	}
	outs := make([]result, len(items))
	for i, n := range items {
		outs[i] = n.eval(e)
	}
	opt := resolve(items, outs, true)
	pes := resolve(items, outs, false)
	if opt.Value == pes.Value {
		opt.Potential = opt.Value
		return opt
	}
	// Open: the pessimistic reading names the atom whose page field could still turn it.
	return Decision{Value: Untested, Potential: opt.Value, By: pes.By, Rule: pes.Rule}
}

// resolve combines the top-level outcomes, taking unknown ones as yes (optimistic) or no.
func resolve(items []Node, outs []result, optimistic bool) Decision {
	val := func(r result) bool { return r.t == yes || (r.t == unknown && optimistic) }
	var best Decision
	positives := false
	for i, n := range items {
		if a, ok := n.(*Atom); ok && a.Cat == Rejection {
			continue
		}
		positives = true
		r := outs[i]
		if !val(r) {
			continue
		}
		tier := r.tier
		if tier == Untested {
			tier = Next // a combination that returned it only through rejection atoms
		}
		if best.Value == Untested || stronger(tier, best.Value) {
			best = Decision{Value: tier, By: r.by, Rule: n, why: []ruleFacts{{n, r.why}}}
		}
	}
	if best.Value == First {
		return best
	}
	for i, n := range items {
		if a, ok := n.(*Atom); ok && a.Cat == Rejection {
			// A rejection atom rejects when it matches: its outcome is "no".
			if r := outs[i]; r.t == no || (r.t == unknown && !optimistic) {
				return Decision{Value: Rejected, By: a, Rule: n, why: []ruleFacts{{n, r.why}}}
			}
		}
	}
	if best.Value != Untested {
		return best
	}
	if !positives {
		return Decision{Value: Next}
	}
	// Not selected: every rule that could have selected it says why it did not; the first
	// is named as the decider.
	out := Decision{Value: Rejected}
	for i, n := range items {
		if a, ok := n.(*Atom); !ok || a.Cat != Rejection {
			if out.By == nil {
				out.By, out.Rule = outs[i].by, n
			}
			out.why = append(out.why, ruleFacts{n, outs[i].why})
		}
	}
	if len(out.why) > 1 {
		out.Rule = nil
	}
	return out
}

// NeedsPage reports whether any rule of the set reads a field known only after the fetch.
func (s *Set) NeedsPage() bool {
	if s == nil {
		return false
	}
	found := false
	s.walk(func(a *Atom) {
		if a.Field.Stage == AfterFetch {
			found = true
		}
	})
	return found
}

func (s *Set) walk(fn func(*Atom)) {
	var visit func(Node)
	visit = func(n Node) {
		switch n := n.(type) {
		case *Atom:
			fn(n)
		case *Op:
			for _, a := range n.Args {
				visit(a)
			}
		}
	}
	for _, n := range s.Rules {
		visit(n)
	}
	for _, l := range s.Locals {
		for _, n := range l.Rules {
			visit(n)
		}
	}
}

// Enter returns the local blocks active for the elements reached through e: those active
// for e (inherited) and those whose selector matches e.
func (s *Set) Enter(e *Element, inherited uint64) uint64 {
	if s == nil {
		return inherited
	}
	for i, l := range s.Locals {
		if l.Pat.match(e.value(l.Field)) {
			inherited |= 1 << i
		}
	}
	return inherited
}
