package library

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Paths name nodes by the titles from the root down, joined by "/": "/Computing/Go" is the
// library Go in the library Computing; "/" is the root. Inside a title, "\/" is a slash and
// "\\" a backslash. A segment "#42" names the node with id 42 (which must be a child of the
// one before), and a path that is only "#42" names node 42 wherever it is: the way to reach
// one of two postings with the same title.

// Segment is one step of a path: a title, or an id (#42).
type Segment struct {
	Title string
	ID    int64
}

// maxPath bounds a path as written, in bytes.
const maxPath = 8192

// ParsePath splits a path into its segments. The leading "/" may be left out.
func ParsePath(p string) ([]Segment, error) {
	p = strings.TrimSpace(p)
	if len(p) > maxPath {
		return nil, invalid("the path is %d bytes long: at most %d are read", len(p), maxPath)
	}
	var segs []Segment
	var b strings.Builder
	literal := false // the segment began with an escape: "\#42" is a title
	flush := func() error {
		t := b.String()
		b.Reset()
		lit := literal
		literal = false
		if t == "" {
			return nil // "//" and a trailing "/" add nothing
		}
		if !lit && strings.HasPrefix(t, "#") {
			id, err := strconv.ParseInt(t[1:], 10, 64)
			if err != nil || id <= 0 {
				return invalid("%q is not a node number (#42); write \\# for a title that starts with #", t)
			}
			segs = append(segs, Segment{ID: id})
			return nil
		}
		segs = append(segs, Segment{Title: t})
		return nil
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			if i+1 < len(p) {
				if b.Len() == 0 {
					literal = true
				}
				i++
				b.WriteByte(p[i])
			} else {
				b.WriteByte(c)
			}
		case '/':
			if err := flush(); err != nil {
				return nil, err
			}
		default:
			b.WriteByte(c)
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return segs, nil
}

// EscapeTitle writes a title as a path segment.
func EscapeTitle(t string) string {
	t = strings.ReplaceAll(t, `\`, `\\`)
	t = strings.ReplaceAll(t, `/`, `\/`)
	if strings.HasPrefix(t, "#") {
		t = `\` + t
	}
	return t
}

// FormatPath joins titles (below the root) into a path.
func FormatPath(titles []string) string {
	if len(titles) == 0 {
		return "/"
	}
	parts := make([]string, len(titles))
	for i, t := range titles {
		parts[i] = EscapeTitle(t)
	}
	return "/" + strings.Join(parts, "/")
}

// Resolve finds the node a path names. Every segment but the last must be a library; the
// last may be any posting. Two postings with the title asked for make the path ambiguous:
// the error names their #ids.
func (l *Library) Resolve(ctx context.Context, path string) (Node, error) {
	segs, err := ParsePath(path)
	if err != nil {
		return Node{}, err
	}
	cur, err := l.st.LibNode(ctx, RootID)
	if err != nil {
		return Node{}, err
	}
	for i, s := range segs {
		last := i == len(segs)-1
		if s.ID != 0 {
			n, err := l.st.LibNode(ctx, s.ID)
			if err != nil {
				return Node{}, fmt.Errorf("%s: %w", path, ErrNotFound)
			}
			if i > 0 && n.Parent != cur.ID {
				return Node{}, fmt.Errorf("%s: #%d is not in %q: %w", path, s.ID, cur.Title, ErrNotFound)
			}
			cur = n
		} else {
			kind := KindLibrary
			if last {
				kind = ""
			}
			ns, err := l.st.LibChildren(ctx, cur.ID, s.Title, kind)
			if err != nil {
				return Node{}, err
			}
			if len(ns) > 1 { // a library and postings of the same title: the path means the library
				var libs []Node
				for _, n := range ns {
					if n.Kind == KindLibrary {
						libs = append(libs, n)
					}
				}
				if len(libs) == 1 {
					ns = libs
				}
			}
			switch {
			case len(ns) == 0:
				return Node{}, fmt.Errorf("%s: nothing called %q in %s: %w", path, s.Title, l.describe(ctx, cur), ErrNotFound)
			case len(ns) > 1:
				var ids []string
				for _, n := range ns {
					ids = append(ids, "#"+strconv.FormatInt(n.ID, 10))
				}
				return Node{}, fmt.Errorf("%s: %d postings are called %q (%s): name one by its number: %w",
					path, len(ns), s.Title, strings.Join(ids, ", "), ErrConflict)
			}
			cur = ns[0]
		}
		if !last && cur.Kind != KindLibrary {
			return Node{}, fmt.Errorf("%s: %q is a %s, not a library: %w", path, cur.Title, cur.Kind, ErrInvalid)
		}
	}
	return cur, nil
}

// describe names a library for a message: its path.
func (l *Library) describe(ctx context.Context, n Node) string {
	p, err := l.PathOf(ctx, n)
	if err != nil {
		return fmt.Sprintf("#%d", n.ID)
	}
	return p
}

// PathOf returns the path of a node.
func (l *Library) PathOf(ctx context.Context, n Node) (string, error) {
	as, err := l.st.LibAncestors(ctx, n)
	if err != nil {
		return "", err
	}
	titles := make([]string, 0, len(as))
	for _, a := range as[min(1, len(as)):] { // the root's title is not part of paths
		titles = append(titles, a.Title)
	}
	if n.ID != RootID {
		titles = append(titles, n.Title)
	}
	return FormatPath(titles), nil
}

// ResolveExisting finds the deepest library along a path that exists, and the titles of
// the path below it that do not (nil when the path names an existing library): where
// `mv` renames to and `import --to` creates. What exists along the way must be
// libraries; a missing step named by #id is not found.
func (l *Library) ResolveExisting(ctx context.Context, path string) (Node, []string, error) {
	segs, err := ParsePath(path)
	if err != nil {
		return Node{}, nil, err
	}
	cur, err := l.st.LibNode(ctx, RootID)
	if err != nil {
		return Node{}, nil, err
	}
	for i, s := range segs {
		next, err := l.Resolve(ctx, segmentsPath(segs[:i+1]))
		if errors.Is(err, ErrNotFound) && s.ID == 0 {
			rest := make([]string, 0, len(segs)-i)
			for _, r := range segs[i:] {
				if r.ID != 0 {
					return Node{}, nil, fmt.Errorf("%s: #%d: %w", path, r.ID, ErrNotFound)
				}
				rest = append(rest, r.Title)
			}
			return cur, rest, nil
		}
		if err != nil {
			return Node{}, nil, err
		}
		if next.Kind != KindLibrary {
			return Node{}, nil, fmt.Errorf("%s: %q is a %s, not a library: %w", path, next.Title, next.Kind, ErrInvalid)
		}
		cur = next
	}
	return cur, nil, nil
}

// segmentsPath writes segments back as a path.
func segmentsPath(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if s.ID != 0 {
			fmt.Fprintf(&b, "#%d", s.ID)
		} else {
			b.WriteString(EscapeTitle(s.Title))
		}
	}
	return b.String()
}
