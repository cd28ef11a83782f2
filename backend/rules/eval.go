package rules

import (
	"strconv"
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
// for a rejection atom that let it pass), and the atom that decided.
type result struct {
	t    truth
	tier Value
	by   *Atom
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
	switch {
	case !known:
		return result{t: unknown, tier: a.Cat.tier(), by: a}
	case a.Cat == Rejection && !m, a.Cat != Rejection && m:
		return result{t: yes, tier: a.Cat.tier(), by: a}
	}
	return result{t: no, by: a}
}

func (o *Op) eval(e *Element) result {
	switch o.Kind {
	case Or:
		// Returned by any: the strongest tier among the rules that return it.
		best, sawUnknown := result{t: no}, false
		for i, n := range o.Args {
			r := n.eval(e)
			switch r.t {
			case yes:
				if best.t != yes || stronger(r.tier, best.tier) {
					best = r
				}
			case unknown:
				sawUnknown = true
				if best.t != yes && (best.t != unknown || stronger(r.tier, best.tier)) {
					best = r
				}
			default:
				if i == 0 && best.t == no {
					best.by = r.by
				}
			}
		}
		if best.t == yes {
			return best
		}
		if sawUnknown {
			best.t = unknown
		}
		return best
	case And:
		// Returned by every rule: decided by the first that does not return it.
		out := result{t: yes}
		for _, n := range o.Args {
			r := n.eval(e)
			switch r.t {
			case no:
				return r
			case unknown:
				out.t = unknown
			}
			if out.by == nil || stronger(r.tier, out.tier) {
				out.tier, out.by = r.tier, r.by
			}
		}
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
			return result{t: no, by: r2.by}
		case unknown:
			return result{t: unknown, tier: r1.tier, by: r2.by}
		}
		if len(o.Args) == 1 {
			return result{t: yes, by: r2.by} // in the list, not returned by the rule
		}
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
	// Rule is the top-level rule (or LOCAL block rule) that decided, nil with By.
	Rule Node
}

// Reason says in words why the element got its value.
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
	case d.Rule != nil && d.Rule != Node(d.By):
		verb := "matched"
		if d.By.Cat == Rejection && d.Value != Rejected {
			verb = "did not match"
		}
		return d.Rule.String() + ": " + by + " " + verb
	case d.By.Cat == Rejection && d.Value == Rejected:
		return by + " matched"
	case d.By.Cat == Rejection:
		return by + " did not match"
	case d.Value == Rejected:
		return by + " did not match"
	}
	return by + " matched"
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
			best = Decision{Value: tier, By: r.by, Rule: n}
		}
	}
	if best.Value == First {
		return best
	}
	for i, n := range items {
		if a, ok := n.(*Atom); ok && a.Cat == Rejection {
			// A rejection atom rejects when it matches: its outcome is "no".
			if r := outs[i]; r.t == no || (r.t == unknown && !optimistic) {
				return Decision{Value: Rejected, By: a, Rule: n}
			}
		}
	}
	if best.Value != Untested {
		return best
	}
	if !positives {
		return Decision{Value: Next}
	}
	// Not selected: say which rule came closest (the first one).
	for i, n := range items {
		if a, ok := n.(*Atom); !ok || a.Cat != Rejection {
			return Decision{Value: Rejected, By: outs[i].by, Rule: n}
		}
	}
	return Decision{Value: Rejected}
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
