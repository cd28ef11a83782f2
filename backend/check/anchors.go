package check

import (
	"net/url"
	"slices"
	"strings"

	"mundaneum/backend/extract"
)

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
