package library

import (
	"context"
	"fmt"
)

// Crumb is one library on the way from the root to a node.
type Crumb struct {
	ID    int64
	Title string
	Path  string
}

// Page is a library's summary page (GENVL's summary.html): its header, the way up to the
// root, its sub-libraries first and apart, then a page of its other postings.
type Page struct {
	Library Posting
	Path    string
	Crumbs  []Crumb // the root first, the library itself left out
	ImageID int64   // the library's picture, or the nearest enclosing library's (0: none)
	Order   Order   // the order used
	Listing
}

// MaxList bounds one page of postings.
const MaxList = 1000

// Open returns a library's page. q.Order "" uses the library's own order.
func (l *Library) Open(ctx context.Context, id int64, q ListQuery) (Page, error) {
	lib, err := l.st.LibPosting(ctx, id)
	if err != nil {
		return Page{}, err
	}
	if lib.Kind != KindLibrary {
		return Page{}, fmt.Errorf("#%d is a %s, not a library: %w", id, lib.Kind, ErrInvalid)
	}
	if q.Order == "" {
		q.Order = lib.Sort
	}
	if q.Order, err = checkOrder(q.Order); err != nil {
		return Page{}, err
	}
	if q.Limit <= 0 || q.Limit > MaxList {
		q.Limit = MaxList
	}
	q.Offset = max(q.Offset, 0)
	p := Page{Library: lib, Order: q.Order}
	if p.Crumbs, p.ImageID, err = l.crumbs(ctx, lib.Node); err != nil {
		return Page{}, err
	}
	p.Path = pathOfCrumbs(p.Crumbs, lib.Node)
	if p.Listing, err = l.st.LibList(ctx, id, q); err != nil {
		return Page{}, err
	}
	return p, nil
}

// crumbs returns the libraries above n and the picture n shows: its own, else that of the
// nearest library above it that has one (GENVL: a new library's image defaults to its
// parent's).
func (l *Library) crumbs(ctx context.Context, n Node) ([]Crumb, int64, error) {
	as, err := l.st.LibAncestors(ctx, n)
	if err != nil {
		return nil, 0, err
	}
	out := make([]Crumb, 0, len(as))
	var titles []string
	image := n.ImageID
	for i, a := range as {
		if i > 0 {
			titles = append(titles, a.Title)
		}
		out = append(out, Crumb{ID: a.ID, Title: a.Title, Path: FormatPath(titles)})
	}
	for i := len(as) - 1; i >= 0 && image == 0; i-- {
		image = as[i].ImageID
	}
	return out, image, nil
}

func pathOfCrumbs(cs []Crumb, n Node) string {
	if n.ID == RootID {
		return "/"
	}
	var titles []string
	for _, c := range cs[1:] {
		titles = append(titles, c.Title)
	}
	return FormatPath(append(titles, n.Title))
}

// Detail is one posting with its place in the tree.
type Detail struct {
	Posting
	Path    string
	Crumbs  []Crumb
	ImageID int64 // its picture or the enclosing library's
}

// Posting returns one node with what the crawler knows of it and its place in the tree.
func (l *Library) Posting(ctx context.Context, id int64) (Detail, error) {
	p, err := l.st.LibPosting(ctx, id)
	if err != nil {
		return Detail{}, err
	}
	d := Detail{Posting: p}
	if d.Crumbs, d.ImageID, err = l.crumbs(ctx, p.Node); err != nil {
		return Detail{}, err
	}
	d.Path = pathOfCrumbs(d.Crumbs, p.Node)
	return d, nil
}

// Recent is GENVL's global list of a library: everything at or below it, newest first.
type Recent struct {
	Postings []Posting
	Paths    []string // the path of each posting's library
	Total    int
}

// Recent lists what was added at or below library id after since (unix ms, 0: ever),
// newest first.
func (l *Library) Recent(ctx context.Context, id int64, since int64, offset, limit int) (Recent, error) {
	if limit <= 0 || limit > MaxList {
		limit = MaxList
	}
	ps, total, err := l.st.LibRecent(ctx, id, since, max(offset, 0), limit)
	if err != nil {
		return Recent{}, err
	}
	r := Recent{Postings: ps, Total: total}
	paths := map[int64]string{}
	for _, p := range ps {
		lp, ok := paths[p.Parent]
		if !ok {
			parent, err := l.st.LibNode(ctx, p.Parent)
			if err != nil {
				return Recent{}, err
			}
			if lp, err = l.PathOf(ctx, parent); err != nil {
				return Recent{}, err
			}
			paths[p.Parent] = lp
		}
		r.Paths = append(r.Paths, lp)
	}
	return r, nil
}

// Image returns a picture of the library.
func (l *Library) Image(ctx context.Context, id int64) (Image, error) { return l.st.LibImage(ctx, id) }

// Tags lists the tags in use, the most used first.
func (l *Library) Tags(ctx context.Context) ([]TagCount, error) { return l.st.LibTags(ctx) }

// Node reads one node.
func (l *Library) Node(ctx context.Context, id int64) (Node, error) { return l.st.LibNode(ctx, id) }

// MaxSeeds bounds the URLs Seeds returns.
const MaxSeeds = 10_000

// Seeds returns the URLs to crawl from a node ("crawl from here"): a pointer's or report's
// own, or those of every pointer at or below a library, each once.
func (l *Library) Seeds(ctx context.Context, id int64) ([]string, error) {
	ns, err := l.st.LibSubtree(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for i, n := range ns {
		if n.URLKey == "" || seen[n.URLKey] || (i > 0 && n.Kind != KindPointer) {
			continue
		}
		if len(out) == MaxSeeds {
			return nil, fmt.Errorf("more than %d addresses to crawl from: choose a smaller library: %w", MaxSeeds, ErrInvalid)
		}
		seen[n.URLKey] = true
		out = append(out, n.URLKey)
	}
	return out, nil
}

// FillTitles gives the pointers to the URLs keys (canonical forms) that were added without
// a title (they show their address) the title of their page, now that the crawler knows
// it: what fetching a pointer once is for. It returns how many it named.
func (l *Library) FillTitles(ctx context.Context, keys []string) (int, error) {
	titles := map[string]string{}
	for _, k := range keys {
		if kn, err := l.st.LibKnown(ctx, k); err != nil {
			return 0, err
		} else if kn != nil {
			if t, _ := checkTitle(clip(kn.Title, MaxTitle), false); t != "" {
				titles[k] = t
			}
		}
	}
	if len(titles) == 0 {
		return 0, nil
	}
	n := 0
	err := l.st.UpdateLibrary(ctx, func(tx Tx) error {
		n = 0
		for k, t := range titles {
			ns, err := tx.WithURL(ctx, k)
			if err != nil {
				return err
			}
			for _, p := range ns {
				if p.Kind != KindPointer || p.Title != clip(cleanLine(p.URL), MaxTitle) {
					continue
				}
				p.Title, p.UpdatedAt = t, l.ms()
				if err := tx.Update(ctx, &p); err != nil {
					return err
				}
				n++
			}
		}
		return nil
	})
	return n, err
}
