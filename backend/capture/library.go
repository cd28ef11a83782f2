package capture

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mundaneum/backend/library"
)

// Choice is a library a pointer may be added to, as a picker offers it.
type Choice struct {
	ID     int64
	Path   string // "/Computing/Go"; "/" is the root
	Recent bool   // pointers were added to it lately
}

// recentLibraries is how many recently used libraries a picker offers first.
const recentLibraries = 8

// Libraries returns the libraries that take pointers whose path matches query, best first,
// at most limit (up to MaxChoices). Every word of query must occur in the path (ignoring
// case); a match at the start of the library's own title ranks first, and among equals a
// recently used library, then the shorter path. An empty query lists the recently used
// libraries, then the others in path order.
func Libraries(ctx context.Context, st Store, query string, limit int) ([]Choice, error) {
	limit = min(max(limit, 1), MaxChoices)
	nodes, err := st.LibLibraries(ctx)
	if err != nil {
		return nil, err
	}
	recent, err := st.LibRecentLibraries(ctx, recentLibraries)
	if err != nil {
		return nil, err
	}
	rank := map[int64]int{}
	for i, id := range recent {
		rank[id] = i + 1
	}
	paths := map[int64][]string{} // id -> titles from below the root
	type cand struct {
		Choice
		score, recent int
	}
	words := strings.Fields(strings.ToLower(query))
	var cands []cand
	for _, n := range nodes {
		var titles []string
		if n.ID != library.RootID {
			titles = append(slices.Clip(paths[n.Parent]), n.Title)
		}
		paths[n.ID] = titles
		if n.CreateOnly {
			continue
		}
		path := library.FormatPath(titles)
		score, ok := match(strings.ToLower(path), lastTitle(titles), words)
		if !ok {
			continue
		}
		cands = append(cands, cand{Choice: Choice{ID: n.ID, Path: path, Recent: rank[n.ID] > 0}, score: score, recent: rank[n.ID]})
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.score != b.score {
			return a.score - b.score
		}
		if ar, br := a.recent != 0, b.recent != 0; ar != br {
			if ar {
				return -1
			}
			return 1
		} else if ar {
			return a.recent - b.recent
		}
		if len(words) > 0 && len(a.Path) != len(b.Path) {
			return len(a.Path) - len(b.Path)
		}
		return strings.Compare(a.Path, b.Path)
	})
	// Words that start words of paths make the better list: inside-a-word matches only when
	// there is nothing else.
	if len(cands) > 0 && cands[0].score < 2 {
		for len(cands) > 0 && cands[len(cands)-1].score == 2 {
			cands = cands[:len(cands)-1]
		}
	}
	out := make([]Choice, 0, min(limit, len(cands)))
	for _, c := range cands[:min(limit, len(cands))] {
		out = append(out, c.Choice)
	}
	return out, nil
}

func lastTitle(titles []string) string {
	if len(titles) == 0 {
		return ""
	}
	return strings.ToLower(titles[len(titles)-1])
}

// match reports whether every word occurs in path, and how well: 0 when each starts a word
// of the path and the last one starts a word of the library's own title, 1 when each
// starts a word of the path, 2 when some only occur inside a word (and 0 for no words).
func match(path, title string, words []string) (int, bool) {
	score := 0
	for _, w := range words {
		if !strings.Contains(path, w) {
			return 0, false
		}
		if !startsWord(path, w) {
			score = 2
		}
	}
	if len(words) == 0 || score == 2 {
		return score, true
	}
	if startsWord(title, words[len(words)-1]) {
		return 0, true
	}
	return 1, true
}

// startsWord reports whether w occurs in s at the start of a word (after the start, a
// slash, a space or a punctuation mark).
func startsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		at := i + j
		if r, _ := utf8.DecodeLastRuneInString(s[:at]); at == 0 || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
		i = at + 1
	}
}

// Tags returns the library's tags that start with prefix (ignoring case), then those that
// contain it, most used first, at most limit (up to MaxChoices).
func Tags(ctx context.Context, st Store, prefix string, limit int) ([]library.TagCount, error) {
	limit = min(max(limit, 1), MaxChoices)
	all, err := st.LibTags(ctx)
	if err != nil {
		return nil, err
	}
	p := strings.ToLower(strings.TrimSpace(prefix))
	var first, then []library.TagCount
	for _, t := range all {
		l := strings.ToLower(t.Tag)
		switch {
		case strings.HasPrefix(l, p):
			first = append(first, t)
		case strings.Contains(l, p):
			then = append(then, t)
		}
	}
	out := append(first, then...)
	return out[:min(limit, len(out))], nil
}

// Place is a pointer in the library.
type Place struct {
	ID        int64  // the pointer
	LibraryID int64  // the library holding it
	Library   string // that library's path
	Title     string
}

// Status is what the library and the crawler hold of a page: what a badge tells.
type Status struct {
	URL    string         // canonical
	Places []Place        // the pointers to it (or that it was redirected from), oldest first
	Known  *library.Known // what the crawler knows of it; nil for nothing
}

// Where tells where a page is in the library, and whether its copy is stored.
func Where(ctx context.Context, st Store, rawURL string) (Status, error) {
	u, err := pageURL(rawURL)
	if err != nil {
		return Status{}, err
	}
	key := u.String()
	ns, err := st.LibPointersTo(ctx, key)
	if err != nil {
		return Status{}, err
	}
	out := Status{URL: key, Places: []Place{}}
	lib := library.New(st)
	for _, n := range ns {
		parent, err := st.LibNode(ctx, n.Parent)
		if err != nil {
			return Status{}, err
		}
		path, err := lib.PathOf(ctx, parent)
		if err != nil {
			return Status{}, err
		}
		out.Places = append(out.Places, Place{ID: n.ID, LibraryID: parent.ID, Library: path, Title: n.Title})
	}
	if out.Known, err = st.LibKnown(ctx, key); err != nil {
		return Status{}, err
	}
	return out, nil
}

// Addition is a page to add to the library from the browser.
type Addition struct {
	URL   string
	Title string // "" takes the page's title as stored, else its address
	Notes string // the selected text, as the user left it
	Tags  []string
	// LibraryID is the library to add it to; when 0, Library is its path ("/Reading", or
	// "#42").
	LibraryID int64
	Library   string
	// Page, when set, is the page as the browser shows it, saved as its newest version.
	Page *Page
}

// Added says what adding did.
type Added struct {
	Place    Place
	Existing bool     // the page was in that library already: the pointer is left as it was
	AlsoIn   []string // the other libraries holding it
	Saved    *Saved   // the page as shown, when it was sent
}

// Add adds a pointer to a page to a library (unless the library holds one already), and
// saves the page as the browser shows it when that was sent. Everything is checked before
// anything is written.
func Add(ctx context.Context, st Store, saver *Saver, in Addition, at time.Time) (Added, error) {
	u, err := pageURL(in.URL)
	if err != nil {
		return Added{}, err
	}
	if in.Page != nil {
		in.Page.URL = in.URL
		if len(in.Page.DOM) > MaxDOM {
			return Added{}, fmt.Errorf("%w: the page is %d bytes, more than the %d MiB a saved page may have", ErrTooLarge, len(in.Page.DOM), MaxDOM>>20)
		}
	}
	if _, err := library.CheckTags(in.Tags); err != nil {
		return Added{}, err
	}
	if len(in.Notes) > library.MaxNotes {
		return Added{}, invalid("notes longer than %d KiB", library.MaxNotes>>10)
	}
	lib := library.New(st)
	parent, err := target(ctx, st, lib, in)
	if err != nil {
		return Added{}, err
	}
	if parent.Kind != library.KindLibrary || parent.CreateOnly {
		what := "a " + string(parent.Kind)
		if parent.CreateOnly {
			what = "create-only (it takes sub-libraries only)"
		}
		return Added{}, fmt.Errorf("%w: %q is %s: choose another library", library.ErrConflict, parent.Title, what)
	}
	var out Added
	if in.Page != nil {
		s, err := saver.Save(ctx, *in.Page, at)
		if err != nil {
			return Added{}, err
		}
		out.Saved = &s
	}
	path, err := lib.PathOf(ctx, parent)
	if err != nil {
		return Added{}, err
	}
	existing, err := st.LibPointersTo(ctx, u.String())
	if err != nil {
		return Added{}, err
	}
	for _, n := range existing {
		if n.Parent == parent.ID {
			out.Place, out.Existing = Place{ID: n.ID, LibraryID: parent.ID, Library: path, Title: n.Title}, true
			return out, nil
		}
	}
	a, err := lib.Point(ctx, parent.ID, library.PointerInput{Title: in.Title, URL: strings.TrimSpace(in.URL), Notes: in.Notes, Tags: in.Tags})
	if err != nil {
		return out, err
	}
	out.Place = Place{ID: a.Node.ID, LibraryID: parent.ID, Library: path, Title: a.Node.Title}
	out.AlsoIn = a.AlsoIn
	if out.AlsoIn == nil {
		out.AlsoIn = []string{}
	}
	return out, nil
}

// target finds the library an addition names.
func target(ctx context.Context, st Store, lib *library.Library, in Addition) (library.Node, error) {
	if in.LibraryID != 0 {
		n, err := st.LibNode(ctx, in.LibraryID)
		if errors.Is(err, library.ErrNotFound) {
			return n, fmt.Errorf("%w: library #%d (was it deleted?)", library.ErrNotFound, in.LibraryID)
		}
		return n, err
	}
	if strings.TrimSpace(in.Library) == "" {
		return library.Node{}, invalid("no library to add to")
	}
	return lib.Resolve(ctx, in.Library)
}
