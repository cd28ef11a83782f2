package history

import (
	"hash/fnv"
	"strings"
	"unicode"

	"mundaneum/backend/store"
)

// Evidence is what Judge weighs about a page's new content.
type Evidence struct {
	Prev, New Text // the page's text before and now (Prev empty: no earlier version)
	// Probe is the site's answer for a URL that cannot exist beside the page, when it was
	// asked: ProbeStatus 0 means not asked.
	Probe       Text
	ProbeStatus int
}

// Judge says whether a page's new content, served with a 2xx status, is in fact a dead page:
// store.FlagParked for a domain-parking page, store.FlagSoft404 for the site's generic error
// page, "" for a page that merely changed.
//
// A parking page is recognised by the words parking services put on their pages, when the
// previous version had none of them (a page about domain parking stays what it is). An error
// page is recognised by its likeness to the site's answer for a URL that cannot exist (when
// that answer is a 2xx: the site hides its 404s), or, without such an answer, by error
// wording that the previous version lacked in a text much shorter than it and unlike it.
func Judge(e Evidence) string {
	newText := e.New.Title + " " + e.New.Body
	if parked(newText) && (e.Prev.Body == "" || !parked(e.Prev.Title+" "+e.Prev.Body)) && words(newText) < 3000 {
		return store.FlagParked
	}
	if e.ProbeStatus >= 200 && e.ProbeStatus < 300 && words(e.Probe.Body+e.Probe.Title) > 0 &&
		Similarity(e.New, e.Probe) >= 0.8 && (e.Prev.Body == "" || Similarity(e.Prev, e.Probe) < 0.8) {
		return store.FlagSoft404
	}
	if e.Prev.Body != "" && looksLikeError(e.New) && !looksLikeError(e.Prev) &&
		words(newText) < words(e.Prev.Title+" "+e.Prev.Body)/2 && Similarity(e.Prev, e.New) < 0.3 {
		return store.FlagSoft404
	}
	return ""
}

// Suspect reports whether new content differs enough from the previous version to be worth
// asking the site for its error page (the probe Judge compares with).
func Suspect(prev, now Text) bool {
	return prev.Body != "" && Similarity(prev, now) < 0.5
}

var parkingPhrases = []string{
	"this domain is for sale", "this domain may be for sale", "the domain may be for sale",
	"domain is for sale", "buy this domain", "make an offer on this domain", "this domain name is for sale",
	"this domain has been registered", "domain has expired", "this domain has expired",
	"parked free", "parked domain", "domain parking", "is parked", "sedoparking", "parkingcrew",
	"bodis.com", "hugedomains", "afternic", "dan.com", "above.com", "domain names for sale",
	"related searches", "inquire about this domain", "renew this domain", "parkingpage",
}

// parked reports whether a text has the wording of a parking page: two of the phrases
// parking services use, or one that only they use.
func parked(text string) bool {
	t := strings.ToLower(text)
	n := 0
	for _, p := range parkingPhrases {
		if strings.Contains(t, p) {
			n++
			if strings.Contains(p, "for sale") || strings.Contains(p, "parked") || strings.Contains(p, "parking") ||
				strings.Contains(p, "expired") {
				return true
			}
		}
	}
	return n >= 2
}

var errorPhrases = []string{"404", "not found", "page not found", "no longer available", "does not exist",
	"doesn't exist", "could not be found", "cannot be found", "can't be found", "page you requested",
	"page you are looking for", "nothing was found", "error 404"}

// looksLikeError reports whether a text's title or opening says it is an error page.
func looksLikeError(t Text) bool {
	head := strings.ToLower(t.Title + " " + firstRunes(t.Body, 300))
	for _, p := range errorPhrases {
		if containsWord(head, p) {
			return true
		}
	}
	return false
}

func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isWordRune(rune(s[j-1]))
		after := j+len(w) >= len(s) || !isWordRune(rune(s[j+len(w)]))
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

func firstRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

func words(s string) int {
	n := 0
	in := false
	for _, r := range s {
		w := isWordRune(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// maxShingleWords bounds the words Similarity reads of each text.
const maxShingleWords = 20_000

// Similarity is the Jaccard resemblance of two texts' sets of three-word shingles (titles
// included): 1 for the same words in the same order, 0 for nothing in common.
func Similarity(a, b Text) float64 {
	sa, sb := shingles(a.Title+" "+a.Body), shingles(b.Title+" "+b.Body)
	if len(sa) == 0 && len(sb) == 0 {
		return 1
	}
	inter := 0
	for h := range sa {
		if _, ok := sb[h]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(sa)+len(sb)-inter)
}

func shingles(s string) map[uint64]struct{} {
	var ws []string
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) }) {
		ws = append(ws, f)
		if len(ws) >= maxShingleWords {
			break
		}
	}
	out := make(map[uint64]struct{}, len(ws))
	if len(ws) < 3 {
		if len(ws) > 0 {
			out[hashWords(ws)] = struct{}{}
		}
		return out
	}
	for i := 0; i+3 <= len(ws); i++ {
		out[hashWords(ws[i:i+3])] = struct{}{}
	}
	return out
}

func hashWords(ws []string) uint64 {
	h := fnv.New64a()
	for _, w := range ws {
		h.Write([]byte(w))
		h.Write([]byte{0})
	}
	return h.Sum64()
}
