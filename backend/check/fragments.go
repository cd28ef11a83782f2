package check

import (
	"slices"
	"strings"
	"time"
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

// pendingFrag is a fragment waiting for its page to be read: written by document doc with
// a reference of kind, or (doc -1) asked for on its own (a link checked now, a pointer).
type pendingFrag struct {
	doc  int32
	kind uint8
	frag string
}

// pend asks for a fragment of page b: looked for at once when b is read, else when its
// test ends (a page only to be probed is read instead, with GET, for its ids).
func (r *run) pend(b *target, p pendingFrag) {
	if r.pending == nil {
		r.pending = map[int32][]pendingFrag{}
	}
	r.pending[b.idx] = append(r.pending[b.idx], p)
	switch b.state {
	case stDone:
		r.resolvePending(b)
	case stQueued:
		b.upgrade(modeAnchors) // not asked yet: read it instead
	}
}

// resolvePending looks for the fragments waiting for page b, now tested: a part that is
// missing gets a target of its own with its verdict, which the documents that wrote it
// reference besides the page.
func (r *run) resolvePending(b *target) {
	res := b.res
	if b.reread(modeAnchors) {
		r.request(b, modeAnchors, waiter{}, "") // probed for another reason first: read it once
		if b.state != stDone {
			return
		}
	}
	ps := r.pending[b.idx]
	delete(r.pending, b.idx)
	for _, p := range ps {
		if partFound(b, res, p.frag) {
			if f := r.byURL[b.url+"#"+p.frag]; p.doc < 0 && f != nil && f.res == nil {
				f.res, f.state = res, stDone // asked for on its own: the page's verdict
			}
			continue
		}
		f := r.fragTarget(b, p.frag)
		if f.res == nil {
			r.fragmentMissing(f, res)
		}
		if p.doc >= 0 {
			d := r.targets[p.doc]
			d.refs = append(d.refs, ref{t: f.idx, kind: p.kind})
		}
	}
}

// fragTarget returns the target of a fragment of a page's target, creating it.
func (r *run) fragTarget(base *target, frag string) *target {
	key := base.url + "#" + frag
	if t, ok := r.byURL[key]; ok {
		return t
	}
	t := &target{idx: int32(len(r.targets)), url: key, u: base.u, origin: base.origin, bad: base.bad, base: base, frag: frag}
	r.targets = append(r.targets, t)
	r.byURL[key] = t
	return t
}

// fragmentMissing records that a page lacks a fragment's place.
func (r *run) fragmentMissing(f *target, page *result) {
	obs := observation{url: f.url, status: page.v.Status, chain: page.v.Chain, noAnchor: true, fragment: f.frag}
	if page.v.FinalURL != "" {
		obs.url = page.v.FinalURL
	}
	f.res = &result{v: classify(obs), method: page.method, contentType: page.contentType, size: page.size, ms: page.ms,
		title: page.title, html: true, at: time.Now().UnixMilli()}
	f.state = stDone
	r.byKind[FragmentMissing]++
	r.saver.add(f)
	for _, bt := range r.saver.takePending() {
		r.saved(bt)
	}
}

// shown is the target a reference shows in a report: a fragment whose part was found (or
// not looked for) shows as its page.
func (r *run) shown(i int32) int32 {
	if t := r.targets[i]; t.base != nil && (t.res == nil || t.res.v.Kind != FragmentMissing) {
		return t.base.idx
	}
	return i
}

// shownRefs are a document's references as its report shows them (shown), each once per
// kind, without the document's own parts that were found on it.
func (r *run) shownRefs(doc int32) []ref {
	refs := r.targets[doc].refs
	if !slices.ContainsFunc(refs, func(rf ref) bool { return r.targets[rf.t].base != nil }) {
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
