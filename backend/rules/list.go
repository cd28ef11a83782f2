package rules

// Apply applies a rule to a list of elements as the paper's Rule_Apply does and returns
// the sublist it returns, in the list's order: an atom returns the elements it matches
// (`*`, `+`, `?`) or does not match (`-`); {OR ...} the union of its rules' lists,
// {AND ...} their intersection, {NOT r1 r2} the elements of r1's list not in r2's, and
// {NOT r} the elements of the list not in r's. Fields not fetched count as not matching.
func Apply(n Node, list []*Element) []*Element {
	switch n := n.(type) {
	case *Atom:
		var matched, unmatched []*Element
		for _, e := range list {
			if m, _ := n.matches(e); m {
				matched = append(matched, e)
			} else {
				unmatched = append(unmatched, e)
			}
		}
		if n.Cat == Rejection {
			return unmatched
		}
		return matched
	case *Op:
		lists := make([][]*Element, len(n.Args))
		for i, a := range n.Args {
			lists[i] = Apply(a, list)
		}
		switch n.Kind {
		case Or:
			return ListOr(list, lists...)
		case And:
			return ListAnd(list, lists...)
		default:
			if len(lists) == 1 {
				return ListNot(list, lists[0])
			}
			return ListNot(lists[0], lists[1])
		}
	}
	return nil
}

func members(l []*Element) map[*Element]bool {
	m := make(map[*Element]bool, len(l))
	for _, e := range l {
		m[e] = true
	}
	return m
}

// ListOr returns the elements of all (in all's order) that are in any of the lists.
func ListOr(all []*Element, lists ...[]*Element) []*Element {
	sets := make([]map[*Element]bool, len(lists))
	for i, l := range lists {
		sets[i] = members(l)
	}
	var out []*Element
	for _, e := range all {
		for _, s := range sets {
			if s[e] {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

// ListAnd returns the elements of all (in all's order) that are in every list.
func ListAnd(all []*Element, lists ...[]*Element) []*Element {
	sets := make([]map[*Element]bool, len(lists))
	for i, l := range lists {
		sets[i] = members(l)
	}
	var out []*Element
next:
	for _, e := range all {
		for _, s := range sets {
			if !s[e] {
				continue next
			}
		}
		out = append(out, e)
	}
	return out
}

// ListNot returns the elements of l1 that are not in l2.
func ListNot(l1, l2 []*Element) []*Element {
	s := members(l2)
	var out []*Element
	for _, e := range l1 {
		if !s[e] {
			out = append(out, e)
		}
	}
	return out
}
