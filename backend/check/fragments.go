package check

import (
	"slices"
	"strings"
)

// Fragments, as linkchecker's AnchorCheck and lychee's --include-fragments check them: a
// link to "page.html#part" is a link to the page that misses its place on it when the page
// has no element with the id "part" (nor an <a name="part">). The page is tested once
// however many fragments point into it: every HTML page read with GET keeps the hashes of
// its ids (a few bytes each), and a page that would only be probed with HEAD is read with
// GET instead, for its ids only, when a fragment points into it. A document references the
// page as before; the fragments it writes wait for the page's test (pendingFrag), and only a
// part that is missing becomes a target of its own, with the verdict fragment_missing
// (never counting towards a link being dead), recorded under its own URL (with the
// fragment), and referenced by the documents that wrote it.

// partFound reports whether a fragment finds its place on page t's result: the part is
// there, or not looked for (the page fails, is not HTML, or was not read).
func partFound(t *target, res *result, frag string) bool {
	switch {
	case res.v.Kind != OK && res.v.Kind != Redirected, !res.html, res.anchors == nil:
		return true
	}
	host := ""
	if t.u != nil {
		host = strings.ToLower(t.u.Hostname())
	}
	return res.anchors.has(frag, host)
}

// shown is the target a reference shows in a report: a fragment whose part was found (or
// not looked for) shows as its page.
func (r *run) shown(i int32) int32 {
	if t := r.tab.list[i]; t.base != nil && (t.res == nil || t.res.v.Kind != FragmentMissing) {
		return t.base.idx
	}
	return i
}

// shownRefs are a document's references as its report shows them (shown), each once per
// kind, without the document's own parts that were found on it.
func (r *run) shownRefs(doc int32) []ref {
	refs := r.tab.list[doc].refs
	if !slices.ContainsFunc(refs, func(rf ref) bool { return r.tab.list[rf.t].base != nil }) {
		return refs
	}
	if out, ok := r.shownCache[doc]; ok {
		return out
	}
	type key struct {
		t    int32
		kind uint8
	}
	seen := make(map[key]bool, len(refs))
	out := make([]ref, 0, len(refs))
	for _, rf := range refs {
		s := r.shown(rf.t)
		if s == doc && s != rf.t || seen[key{s, rf.kind}] {
			continue
		}
		seen[key{s, rf.kind}] = true
		out = append(out, ref{t: s, kind: rf.kind})
	}
	if r.shownCache == nil {
		r.shownCache = map[int32][]ref{}
	}
	r.shownCache[doc] = out
	return out
}
