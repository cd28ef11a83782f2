package exchange

import (
	"context"
	"strings"
	"testing"

	"mundaneum/backend/store"
)

// importOnly is a workspace seen only through ImportStore, counting the pages saved.
type importOnly struct {
	ImportStore
	saved int
}

func (s *importOnly) ImportSummary(ctx context.Context, r *store.Result, t store.Target, sourceID int64) (store.ImportOutcome, error) {
	s.saved++
	return s.ImportStore.ImportSummary(ctx, r, t, sourceID)
}

// A file's import needs no more of the workspace than ImportStore (one persistence
// pattern, as the library's: the package declares what it keeps and the store implements
// it): the page is saved through it, and its run ends (crawl.Finish) through it.
func TestImportThroughItsInterface(t *testing.T) {
	ctx := context.Background()
	in := newInstance(t, "b")
	st := &importOnly{ImportStore: in.st}
	doc := "@FILE { http://www.ukoln.example/notes/\n" + soifAttr("Title", "Notes on zymurgical records") + "}\n"
	rep, err := ImportFile(ctx, st, "notes.soif", strings.NewReader(doc), ImportOptions{Index: in.idx})
	if err != nil || rep.Applied != 1 || st.saved != 1 {
		t.Fatalf("import %+v %v, %d saved", rep, err, st.saved)
	}
	if got := in.search(t, "zymurgical"); len(got) != 1 {
		t.Errorf("the imported page is found by %v", got)
	}
	c, err := in.st.Crawl(ctx, rep.CrawlID)
	if err != nil || c.State != store.CrawlDone {
		t.Errorf("the import's crawl %+v %v", c, err)
	}
}
