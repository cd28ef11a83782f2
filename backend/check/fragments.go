package check

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"mundaneum/backend/extract"
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

// anchorSet is what the fragments into a page may name: its ids and <a name>s, as sorted
// FNV-1a hashes. A page that sends its reader elsewhere (a meta refresh: rustdoc's
// redirect pages carry the fragment over by script) names nothing itself: any fragment
// goes on with the reader. nil: the page was not read.
type anchorSet struct {
	ids      []uint64
	forwards bool
}

// newAnchorSet sorts hashes into a set (of its own: h's array, grown by appends, is not
// kept for the rest of the run).
func newAnchorSet(h []uint64, forwards bool) *anchorSet {
	slices.Sort(h)
	h = slices.Compact(h)
	return &anchorSet{ids: append([]uint64(nil), h...), forwards: forwards}
}

func (a *anchorSet) contains(s string) bool {
	_, ok := slices.BinarySearch(a.ids, hashString(s))
	return ok
}

// has reports whether a fragment finds its place on a page of host: an element with that
// id or name, as written or percent-decoded. Fragments that name no element are found:
// none, "top" (the top of the page), a text directive (":~:text="), a script's route
// ("#!/x", "#/x"), and a range of lines ("#10-20", "#L10-L20": source views select them by
// script) whose first line has its id.
func (a *anchorSet) has(frag, host string) bool {
	if i := strings.Index(frag, ":~:"); i >= 0 {
		frag = frag[:i]
	}
	switch {
	case a.forwards || frag == "" || strings.EqualFold(frag, "top") || frag[0] == '!' || frag[0] == '/':
		return true
	case a.contains(frag):
		return true
	}
	if dec, err := url.PathUnescape(frag); err == nil && dec != frag && a.contains(dec) {
		return true
	}
	if first, last, ok := strings.Cut(frag, "-"); ok && lineNumber(first) && lineNumber(last) && a.contains(first) {
		return true
	}
	// GitHub renders a README's headings with ids prefixed by its script's.
	return (host == "github.com" || strings.HasSuffix(host, ".github.com")) && a.contains("user-content-"+frag)
}

// lineNumber reports whether s is a line number as source views write them: "12", "L12".
func lineNumber(s string) bool {
	s = strings.TrimPrefix(s, "L")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// hashID and hashString are FNV-1a 64.
func hashID(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// splitFragment cuts a URL as written into the URL and its fragment, made safe as extract
// writes one ("" when there is none).
func splitFragment(raw string) (string, string) {
	i := strings.IndexByte(raw, '#')
	if i < 0 {
		return raw, ""
	}
	return raw[:i], extract.EscapeFragment(raw[i+1:])
}

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
