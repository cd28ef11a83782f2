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
// its ids (a few bytes each), and a page that was only probed with HEAD is read once more
// with GET, for its ids only, when a fragment points into it. A fragment target shares
// its page's verdict, except when the part is missing: then it has a verdict of its own,
// fragment_missing, which never counts towards a link being dead, and is recorded under
// its own URL (with the fragment) so that reports and histories name it.

// anchorSet is a page's ids and <a name>s, as sorted FNV-1a hashes; nil: not read.
type anchorSet []uint64

// newAnchorSet sorts hashes into a set (never nil: a page with no ids has an empty set).
func newAnchorSet(h []uint64) anchorSet {
	if len(h) == 0 {
		return anchorSet{}
	}
	slices.Sort(h)
	return slices.Clip(anchorSet(slices.Compact(h)))
}

func (a anchorSet) contains(s string) bool {
	_, ok := slices.BinarySearch(a, hashString(s))
	return ok
}

// has reports whether a fragment finds its place on a page of host: an element with that
// id or name, as written or percent-decoded. Fragments that name no element are found:
// none, "top" (the top of the page), a text directive (":~:text="), and a script's route
// ("#!/x", "#/x").
func (a anchorSet) has(frag, host string) bool {
	if i := strings.Index(frag, ":~:"); i >= 0 {
		frag = frag[:i]
	}
	switch {
	case frag == "" || strings.EqualFold(frag, "top") || frag[0] == '!' || frag[0] == '/':
		return true
	case a.contains(frag):
		return true
	}
	if dec, err := url.PathUnescape(frag); err == nil && dec != frag && a.contains(dec) {
		return true
	}
	// GitHub renders a README's headings with ids prefixed by its script's.
	return (host == "github.com" || strings.HasSuffix(host, ".github.com")) && a.contains("user-content-"+frag)
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

// wantAnchors asks for a fragment target's verdict: its page is read for its ids (at once
// when it is read already, else when its test ends).
func (r *run) wantAnchors(f *target) {
	if f.state != stNew {
		return
	}
	f.state = stQueued
	b := f.base
	b.frags = append(b.frags, f)
	switch b.state {
	case stDone:
		r.resolveFrags(b)
	case stQueued:
		if b.mode == modeProbe && b.queued != nil {
			b.mode, b.queued.mode = modeAnchors, modeAnchors // not asked yet: read it instead
		}
	}
}

// resolveFrags gives the fragment targets waiting for page b their verdicts.
func (r *run) resolveFrags(b *target) {
	res := b.res
	var host string
	if b.u != nil {
		host = strings.ToLower(b.u.Hostname())
	}
	for _, f := range b.frags {
		if f.state == stDone {
			continue
		}
		switch {
		case res.v.Kind != OK && res.v.Kind != Redirected, !res.html:
			// The page's own verdict stands for its parts; a part of a document that is not
			// HTML is not checked.
		case res.anchors == nil:
			// Answered but not read (probed for another reason first): read it once.
			r.request(b, modeAnchors, waiter{}, "")
			if b.state != stDone {
				return
			}
		case !res.anchors.has(f.frag, host):
			r.fragmentMissing(f, res)
			continue
		}
		f.res, f.state = res, stDone
	}
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
