package check

import "mundaneum/backend/urlnorm"

// targetTable is a run's targets: each URL once, by its index (a target's idx) and by
// its URL.
type targetTable struct {
	list  []*target
	byURL map[string]*target
}

func newTargetTable() *targetTable { return &targetTable{byURL: map[string]*target{}} }

// add gives t its index and files it under key.
func (tb *targetTable) add(key string, t *target) *target {
	t.idx = int32(len(tb.list))
	tb.list = append(tb.list, t)
	tb.byURL[key] = t
	return t
}

// of returns the target of a canonical URL, creating it.
func (tb *targetTable) of(u string, bad error) *target {
	if t, ok := tb.byURL[u]; ok {
		return t
	}
	t := &target{url: u, bad: bad}
	if bad == nil {
		pu, err := canonical(u)
		if err != nil {
			t.bad = err
		} else {
			t.u, t.origin = pu, urlnorm.Origin(pu)
		}
	}
	return tb.add(u, t)
}

// forRaw returns the target of a URL as a user wrote it (a fragment's target when it
// has one).
func (tb *targetTable) forRaw(raw string) *target {
	if page, frag := splitFragment(raw); frag != "" {
		if b := tb.forRaw(page); b.bad == nil {
			return tb.frag(b, frag)
		}
	}
	u, err := canonical(raw)
	if err != nil {
		if t, ok := tb.byURL[raw]; ok {
			return t
		}
		return tb.add(raw, &target{url: raw, bad: err})
	}
	return tb.of(u.String(), nil)
}

// frag returns the target of a fragment of a page's target, creating it.
func (tb *targetTable) frag(base *target, frag string) *target {
	key := base.url + "#" + frag
	if t, ok := tb.byURL[key]; ok {
		return t
	}
	return tb.add(key, &target{url: key, u: base.u, origin: base.origin, bad: base.bad, base: base, frag: frag})
}
