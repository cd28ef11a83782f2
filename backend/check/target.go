package check

import (
	"net/http"
	"net/url"
	"strings"

	"mundaneum/backend/check/record"
	"mundaneum/backend/extract"
	"mundaneum/backend/urlnorm"
)

// maxHops bounds a redirect chain.
const maxHops = 10

// Request modes, each reading more than the one before.
const (
	modeProbe   uint8 = iota + 1 // HEAD (GET when HEAD is refused): is it there?
	modeAnchors                  // GET and read its ids only: a page that fragments point into
	modeDoc                      // GET and read: a document whose links are traversed
)

// Target states.
const (
	stNew uint8 = iota
	stQueued
	stDone
)

// target is one URL of a run, shared by every task that references it: MOMspider's point
// that a URL is tested once however many infostructures overlap on it.
type target struct {
	idx    int32
	url    string // canonical
	u      *url.URL
	bad    error // the URL cannot be requested (Invalid without a request)
	origin string
	state  uint8
	mode   uint8 // of the request made or under way
	// queued is the target's job while it waits in a host queue (nil once it is sent).
	queued *job
	res    *result
	// waiters are the tasks to tell when the result arrives.
	waiters []waiter
	// refs are the document's references once it was read (shared by the tasks that
	// traverse it); nil for leaves.
	refs []ref
	id   int64 // check_urls id, once saved
	// prev and health are the URL's health before and after this run's check.
	prev, health record.Health
	// A fragment target ("page.html#part") has its page as base and is never requested: its
	// result is the page's, unless the page lacks the part (fragments.go).
	base *target
	frag string
}

// waiter is a task waiting for a target's result, and why.
type waiter struct {
	task  *taskRun
	role  uint8 // roleNode or roleCandidate
	depth int32
	from  int32 // the document that referenced it (for the report's order)
}

// ref is one reference of a document: a target and the kind of reference.
type ref struct {
	t    int32
	kind uint8
}

// result is what a test of a target concluded, with the header information MOMspider's
// index lists.
type result struct {
	v            Verdict
	method       string
	contentType  string
	size         int64 // -1 unknown
	ms           int64
	title        string
	lastModified string
	expires      string // an author's expiry: meta, or a header that is not cache control
	owner        string
	etag         string
	hash         string
	isDoc        bool // read with GET as HTML: refs and title are known
	html         bool // the media type is HTML (a document, if in the infostructure)
	at           int64
	anchors      *anchorSet // the ids and names of an HTML page read with GET; nil if not read
}

// Reference kinds as stored (one byte each); the names are extract's.
var kindNames = []string{"", extract.KindA, extract.KindArea, extract.KindImg, extract.KindFrame, extract.KindIFrame,
	extract.KindLink, extract.KindRefresh, extract.KindScript, extract.KindEmbed, extract.KindObject, extract.KindMedia,
	extract.KindForm, extract.KindText, "pointer"}

var kindCodes = func() map[string]uint8 {
	m := make(map[string]uint8, len(kindNames))
	for i, k := range kindNames {
		m[k] = uint8(i)
	}
	return m
}()

const kindPointer = 14 // a library pointer

// KindName is the name of a stored reference kind ("a", "img", ...).
func KindName(k uint8) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// traversable reports whether a reference of kind k leads to a document a reader goes to
// (and so may be traversed); images, scripts, style sheets and the like are leaves.
func traversable(k uint8) bool {
	switch KindName(k) {
	case extract.KindA, extract.KindArea, extract.KindFrame, extract.KindIFrame, extract.KindRefresh:
		return true
	}
	return false
}

// tested reports whether a link is tested at all: form targets are not links a reader
// follows, and preconnect/dns-prefetch hints name a host, not a resource.
func tested(l *extract.Link) bool {
	switch l.Kind {
	case extract.KindForm:
		return false
	case extract.KindLink:
		for _, r := range strings.Fields(l.Rel) {
			if r == "preconnect" || r == "dns-prefetch" {
				return false
			}
		}
	}
	return true
}

// looksLikeDoc is false for URLs whose extension says they are not HTML (a leaf is then
// probed with HEAD rather than fetched).
func looksLikeDoc(u *url.URL) bool {
	p := u.Path
	i := strings.LastIndexByte(p, '.')
	if i < 0 || strings.LastIndexByte(p, '/') > i {
		return true
	}
	switch strings.ToLower(p[i+1:]) {
	case "html", "htm", "xhtml", "shtml", "php", "asp", "aspx", "jsp", "cgi", "pl":
		return true
	}
	return !nonDocExt[strings.ToLower(p[i+1:])]
}

var nonDocExt = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`jpg jpeg png gif webp svg ico bmp tif tiff avif heic
		mp3 ogg oga wav flac m4a aac mid midi mp4 m4v mpg mpeg mov avi wmv webm mkv flv ogv
		zip gz tgz bz2 xz 7z rar tar iso dmg exe msi deb rpm apk bin jar
		pdf ps eps doc docx xls xlsx ppt pptx odt ods odp epub txt md csv xml rss atom
		css js mjs json map woff woff2 ttf otf eot wasm`) {
		nonDocExt[e] = true
	}
}

// htmlType reports whether a media type is one a document's links are read from.
func htmlType(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }

// cacheExpiry reports whether an Expires header is cache control rather than an author's
// expiry date: sent with Cache-Control's lifetimes, or not after the response's Date (the
// "already expired" idiom). MOMspider meant the author's date; reporting cache lifetimes
// as expiring documents would flag most of the web every run.
func cacheExpiry(h http.Header) bool {
	cc := strings.ToLower(h.Get("Cache-Control"))
	if strings.Contains(cc, "max-age") || strings.Contains(cc, "no-cache") || strings.Contains(cc, "no-store") {
		return true
	}
	exp, err := http.ParseTime(h.Get("Expires"))
	if err != nil {
		return true
	}
	date, err := http.ParseTime(h.Get("Date"))
	return err == nil && !exp.After(date)
}

// canonical parses a link's absolute URL into the run's canonical form.
func canonical(raw string) (*url.URL, error) { return urlnorm.Parse(raw) }
