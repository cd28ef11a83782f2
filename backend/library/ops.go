package library

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Library runs the operations of the virtual library over a Store, for one person.
type Library struct {
	st   Store
	now  func() time.Time
	who  Person
	gate Gate // nil: passwords are checked without limits
}

// New returns the library of a workspace's store, acting for its owner (Person{}).
func New(st Store) *Library { return &Library{st: st, now: time.Now} }

// WithClock returns a library that takes the time from now (for tests).
func (l *Library) WithClock(now func() time.Time) *Library {
	c := *l
	c.now = now
	return &c
}

// For returns the library acting for who, its password checks metered by gate (nil: none).
func (l *Library) For(who Person, gate Gate) *Library {
	c := *l
	c.who, c.gate = who, gate
	return &c
}

func (l *Library) ms() int64 { return l.now().UnixMilli() }

// Author is who posts, as GENVL recorded it: a name, an e-mail address and an optional
// password that then protects what they post. LibraryPassword opens the library posted
// into when that is protected (protect.go).
type Author struct {
	Name            string
	Email           string
	Password        string
	LibraryPassword string
}

// person checks an author and hashes the password (outside any transaction: it is slow).
func (l *Library) person(ctx context.Context, a Author) (name, email, hash string, err error) {
	if name, email, err = checkPerson(a.Name, a.Email); err != nil {
		return "", "", "", err
	}
	if hash, err = l.hash(ctx, a.Password); err != nil {
		return "", "", "", err
	}
	return name, email, hash, nil
}

// LibraryInput describes a new library (GENVL's table 1).
type LibraryInput struct {
	Title      string
	Purpose    string
	CreateOnly bool
	Order      Order
	Image      *ImageData // nil: the parent's picture
	By         Author
}

// PointerInput describes a new pointer.
type PointerInput struct {
	Title string // "" takes the page's title if the crawler knows it, else the URL
	URL   string
	Notes string
	Tags  []string
	By    Author
}

// ReportInput describes a new report (GENVL's table 2).
type ReportInput struct {
	Title string
	URL   string // optional: what the report is about
	Body  string // Markdown
	Image *ImageData
	By    Author
}

// Added is a node just added, with the paths of other pointers to the same URL.
type Added struct {
	Node   Node
	AlsoIn []string
}

func checkOrder(o Order) (Order, error) {
	switch o {
	case "":
		return ByTitle, nil
	case ByTitle, ByDate, ByManual:
		return o, nil
	}
	return "", invalid("the order must be title, date or manual")
}

// depth is how deep a node of path is (the root is 0).
func depth(path string) int { return strings.Count(path, "/") - 2 }

func childPath(parent Node, id int64) string { return parent.Path + strconv.FormatInt(id, 10) + "/" }

// openParent reads the library something is posted to and checks it takes postings of
// kind and that c lets it be posted into.
func openParent(c check, id int64, kind Kind) (Node, error) {
	p, err := c.r.node(c.ctx, id)
	if err != nil {
		return p, err
	}
	switch {
	case p.Kind != KindLibrary:
		return p, fmt.Errorf("%q is a %s: postings go into libraries: %w", p.Title, p.Kind, ErrInvalid)
	case p.CreateOnly && kind != KindLibrary:
		return p, fmt.Errorf("%q takes only sub-libraries (it is create-only): %w", p.Title, ErrConflict)
	case kind == KindLibrary && depth(p.Path) >= MaxDepth:
		return p, fmt.Errorf("libraries nest at most %d deep: %w", MaxDepth, ErrConflict)
	}
	return p, c.postInto(p)
}

// posting authorizes posting a node of kind into parent and runs add in a write
// transaction with the parent as it is there and the password hashes that opened it.
func (l *Library) posting(ctx context.Context, parent int64, kind Kind, by Author, add func(tx Tx, p Node, keys []string) error) error {
	g, err := l.authorize(ctx, by.LibraryPassword, func(c check) error {
		_, err := openParent(c, parent, kind)
		return err
	})
	if err != nil {
		return err
	}
	return l.st.UpdateLibrary(ctx, func(tx Tx) error {
		p, err := openParent(l.in(ctx, tx, g), parent, kind)
		if err != nil {
			return err
		}
		return add(tx, p, g.opened())
	})
}

// sameTitleLibrary refuses a second sub-library of the same title (paths must name one).
func sameTitleLibrary(ctx context.Context, tx Tx, parent int64, title string, except int64) error {
	ns, err := tx.Children(ctx, parent, title, KindLibrary)
	if err != nil {
		return err
	}
	for _, n := range ns {
		if n.ID != except {
			return fmt.Errorf("there is a library %q here already (#%d): %w", title, n.ID, ErrConflict)
		}
	}
	return nil
}

// insertNode gives n an id, a path and the last position under parent, and stores it.
func insertNode(ctx context.Context, tx Tx, parent Node, n *Node) error {
	id, err := tx.NextID(ctx)
	if err != nil {
		return err
	}
	pos, err := tx.NextPosition(ctx, parent.ID)
	if err != nil {
		return err
	}
	n.ID, n.Parent, n.Path, n.Position = id, parent.ID, childPath(parent, id), pos
	return tx.Insert(ctx, n)
}

func (l *Library) saveImage(ctx context.Context, tx Tx, d *ImageData) (int64, error) {
	if d.Empty() {
		return 0, nil
	}
	mime, data, err := checkImage(d)
	if err != nil {
		return 0, err
	}
	return tx.SaveImage(ctx, mime, data)
}

// push journals an operation, so that Undo can take it back: who did it, and the
// password hashes it was done with. A new change ends what Redo could do.
func (l *Library) push(ctx context.Context, tx Tx, op, summary string, data []byte, keys []string) error {
	if err := tx.ClearRedo(ctx); err != nil {
		return err
	}
	return tx.PushUndo(ctx, Undo{At: l.ms(), Op: op, Summary: summary, Data: data, Keys: keys, By: l.who.ID, ByName: l.who.Name})
}

// pushAdded journals the nodes an operation added, so that Undo can take them away.
func (l *Library) pushAdded(ctx context.Context, tx Tx, summary string, keys []string, ids ...int64) error {
	data, _ := json.Marshal(addedUndo{IDs: ids})
	return l.push(ctx, tx, "added", summary, data, keys)
}

// Create makes a sub-library (GENVL's Create).
func (l *Library) Create(ctx context.Context, parent int64, in LibraryInput) (Node, error) {
	title, err := checkTitle(in.Title, true)
	if err != nil {
		return Node{}, err
	}
	purpose, err := checkText("statement of purpose", in.Purpose, MaxNotes)
	if err != nil {
		return Node{}, err
	}
	order, err := checkOrder(in.Order)
	if err != nil {
		return Node{}, err
	}
	name, email, hash, err := l.person(ctx, in.By)
	if err != nil {
		return Node{}, err
	}
	now := l.ms()
	n := Node{Kind: KindLibrary, Title: title, Purpose: purpose, CreateOnly: in.CreateOnly, Sort: order,
		Author: name, Email: email, Password: hash, CreatedAt: now, UpdatedAt: now}
	err = l.posting(ctx, parent, KindLibrary, in.By, func(tx Tx, p Node, keys []string) error {
		var err error
		if err := sameTitleLibrary(ctx, tx, p.ID, title, 0); err != nil {
			return err
		}
		if n.ImageID, err = l.saveImage(ctx, tx, in.Image); err != nil {
			return err
		}
		if err := insertNode(ctx, tx, p, &n); err != nil {
			return err
		}
		return l.pushAdded(ctx, tx, fmt.Sprintf("created the library %q", title), keys, n.ID)
	})
	return n, err
}

// Point adds a pointer (GENVL's Point). A URL already in the library is refused; one
// elsewhere in the tree is added, and Added.AlsoIn says where else it is.
func (l *Library) Point(ctx context.Context, parent int64, in PointerInput) (Added, error) {
	raw, key, err := checkURL(in.URL)
	if err != nil {
		return Added{}, err
	}
	title, err := checkTitle(in.Title, false)
	if err != nil {
		return Added{}, err
	}
	if title == "" {
		if k, err := l.st.LibKnown(ctx, key); err == nil && k != nil && cleanLine(k.Title) != "" {
			title, _ = checkTitle(k.Title, false)
		} else {
			title = clip(raw, MaxTitle)
		}
	}
	notes, err := checkText("notes", in.Notes, MaxNotes)
	if err != nil {
		return Added{}, err
	}
	tags, err := CheckTags(in.Tags)
	if err != nil {
		return Added{}, err
	}
	name, email, hash, err := l.person(ctx, in.By)
	if err != nil {
		return Added{}, err
	}
	now := l.ms()
	var a Added
	err = l.posting(ctx, parent, KindPointer, in.By, func(tx Tx, p Node, keys []string) error {
		a = Added{Node: Node{Kind: KindPointer, Title: title, URL: raw, URLKey: key, Notes: notes, Tags: tags,
			Author: name, Email: email, Password: hash, CreatedAt: now, UpdatedAt: now}}
		var err error
		if a.AlsoIn, err = l.duplicates(ctx, tx, p.ID, key, 0); err != nil {
			return err
		}
		if err := insertNode(ctx, tx, p, &a.Node); err != nil {
			return err
		}
		return l.pushAdded(ctx, tx, fmt.Sprintf("added %q", title), keys, a.Node.ID)
	})
	return a, err
}

// duplicates refuses a URL already posted in parent (but for the node except) and lists
// the paths of its other postings.
func (l *Library) duplicates(ctx context.Context, tx Tx, parent int64, key string, except int64) ([]string, error) {
	ns, err := tx.WithURL(ctx, key)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, n := range ns {
		if n.ID == except {
			continue
		}
		if n.Parent == parent && n.Kind == KindPointer {
			return nil, fmt.Errorf("this address is in this library already, as %q (#%d): %w", n.Title, n.ID, ErrConflict)
		}
		titles, err := tx.PathTitles(ctx, n.Path)
		if err != nil {
			return nil, err
		}
		paths = append(paths, FormatPath(titles[1:len(titles)-1]))
	}
	return paths, nil
}

// Input adds a report (GENVL's Input): a title and Markdown text, optionally about a URL.
func (l *Library) Input(ctx context.Context, parent int64, in ReportInput) (Node, error) {
	title, err := checkTitle(in.Title, true)
	if err != nil {
		return Node{}, err
	}
	body, err := checkText("report", in.Body, MaxBody)
	if err != nil {
		return Node{}, err
	}
	var raw, key string
	if strings.TrimSpace(in.URL) != "" {
		if raw, key, err = checkURL(in.URL); err != nil {
			return Node{}, err
		}
	}
	name, email, hash, err := l.person(ctx, in.By)
	if err != nil {
		return Node{}, err
	}
	now := l.ms()
	n := Node{Kind: KindReport, Title: title, URL: raw, URLKey: key, Body: body, Author: name, Email: email,
		Password: hash, CreatedAt: now, UpdatedAt: now}
	err = l.posting(ctx, parent, KindReport, in.By, func(tx Tx, p Node, keys []string) error {
		var err error
		if n.ImageID, err = l.saveImage(ctx, tx, in.Image); err != nil {
			return err
		}
		if err := insertNode(ctx, tx, p, &n); err != nil {
			return err
		}
		return l.pushAdded(ctx, tx, fmt.Sprintf("wrote the report %q", title), keys, n.ID)
	})
	return n, err
}

// PlaceView places a saved search view in the tree (Harvest's views as a classification).
// title "" takes the view's name.
func (l *Library) PlaceView(ctx context.Context, parent int64, view, title string, by Author) (Node, error) {
	view = strings.TrimSpace(view)
	if title == "" {
		title = view
	}
	title, err := checkTitle(title, true)
	if err != nil {
		return Node{}, err
	}
	name, email, hash, err := l.person(ctx, by)
	if err != nil {
		return Node{}, err
	}
	now := l.ms()
	n := Node{Kind: KindView, Title: title, Author: name, Email: email, Password: hash, CreatedAt: now, UpdatedAt: now}
	err = l.posting(ctx, parent, KindView, by, func(tx Tx, p Node, keys []string) error {
		var err error
		if n.ViewID, err = tx.ViewID(ctx, view); err != nil {
			return err
		}
		if err := insertNode(ctx, tx, p, &n); err != nil {
			return err
		}
		return l.pushAdded(ctx, tx, fmt.Sprintf("placed the view %q", title), keys, n.ID)
	})
	return n, err
}
