package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mundaneum/backend/check/report"
)

// LibrarySource lists the pointers of a library subtree, folder by folder (the library
// package satisfies it). Path is a library path as the user writes it ("/Computing/Go").
type LibrarySource interface {
	PointerFolders(ctx context.Context, path string) ([]LibraryFolder, error)
}

// LibraryFunc makes a function a LibrarySource.
type LibraryFunc func(ctx context.Context, path string) ([]LibraryFolder, error)

// PointerFolders calls f.
func (f LibraryFunc) PointerFolders(ctx context.Context, path string) ([]LibraryFolder, error) {
	return f(ctx, path)
}

// LibraryFolder is one library of a subtree with its pointers.
type LibraryFolder struct {
	Path     string
	Pointers []LibraryPointer
}

// LibraryPointer is one pointer of a library.
type LibraryPointer struct {
	ID    int64
	Title string
	URL   string
}

// ErrNoLibrary is returned when a library task runs without a library to read.
var ErrNoLibrary = errors.New("the library is not available")

// libraryScheme marks the report documents that stand for library folders.
const libraryScheme = "library:"

// startLibrary sets up a library task: each folder of the subtree is a document of the
// report, its pointers are its references, each tested as a leaf.
func (tr *taskRun) startLibrary(ctx context.Context, b board, lib LibrarySource) error {
	if lib == nil {
		return fmt.Errorf("task %q: %w", tr.task.Name, ErrNoLibrary)
	}
	folders, err := lib.PointerFolders(ctx, tr.task.Top)
	if err != nil {
		return fmt.Errorf("task %q: %w", tr.task.Name, err)
	}
	for _, f := range folders {
		if len(tr.docs) >= tr.max {
			tr.limited = true
			break
		}
		ft := b.targets().of(libraryScheme+f.Path, errNotRequested)
		if ft.res == nil {
			ft.res = &result{v: Verdict{Kind: OK, Code: CodeOK, Reason: "a library"}, isDoc: true, title: f.Path,
				size: -1, at: time.Now().UnixMilli()}
			ft.state = stDone
			b.document() // a document of the report, as a page read for its links is
			for _, p := range f.Pointers {
				pt := b.targets().forRaw(p.URL)
				ft.refs = append(ft.refs, ref{t: pt.idx, kind: report.KindPointer})
			}
		}
		tr.roles[ft.idx] = roleNode
		tr.docs = append(tr.docs, docEntry{t: ft.idx})
		for _, rf := range ft.refs {
			t := b.targets().list[rf.t]
			if tr.roles[t.idx] != roleNone {
				continue
			}
			if avoid, _ := tr.rules.match(t.url); avoid {
				tr.roles[t.idx] = roleAvoided
				continue
			}
			tr.roles[t.idx] = roleLeaf
			b.request(t, modeProbe, waiter{}, "")
		}
	}
	return nil
}

// errNotRequested marks targets that are not URLs to request (library folders).
var errNotRequested = errors.New("not a URL to request")
