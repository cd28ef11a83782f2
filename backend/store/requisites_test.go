package store

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

func TestRequisitesKeepTheNewestFetchesAndTheNearestWins(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	const u = "http://a.test/style.css"
	for i, body := range []string{"a{}", "b{}", "", "c{}", "d{}"} {
		f := RequisiteFetch{URL: u, FetchedAt: int64(1000 * (i + 1)), Kind: "stylesheet", Status: 200, ContentType: "text/css"}
		if body != "" {
			f.Body = []byte(body)
		} else {
			f.Status, f.Error = 503, "server error"
		}
		if err := st.SaveRequisite(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SaveRequisite(ctx, RequisiteFetch{URL: "http://a.test/logo.png", FetchedAt: 1, Kind: "image", Status: 200,
		ContentType: "image/png", Body: []byte("\x89PNG")}); err != nil {
		t.Fatal(err)
	}
	if err := st.Writer().Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// Kept: the fetches at 3000 (no body), 4000 and 5000; the bodies of 1000 and 2000 went.
	for at, want := range map[int64]string{0: "c{}", 3400: "c{}", 4600: "d{}", 9999: "d{}"} {
		r, err := st.Requisite(ctx, u, at)
		if err != nil || string(r.Body) != want || r.ContentType != "text/css" {
			t.Errorf("Requisite(at %d) = %q %q, %v; want %q", at, r.Body, r.ContentType, err, want)
		}
	}
	var bodies int
	st.ReadDB().QueryRow(`SELECT count(*) FROM requisite_bodies`).Scan(&bodies)
	if bodies != 3 {
		t.Errorf("%d bodies kept, want 3 (c, d and the image)", bodies)
	}
	if r, err := st.Requisite(ctx, "http://a.test/logo.png", 0); err != nil || !bytes.Equal(r.Body, []byte("\x89PNG")) {
		t.Errorf("image: %q, %v", r.Body, err)
	}
	if _, err := st.Requisite(ctx, "http://a.test/none.css", 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown requisite: %v", err)
	}
	if s, err := st.RequisiteState(ctx, u); err != nil || s.LastFetched != 5000 || !s.Stored {
		t.Errorf("state %+v, %v", s, err)
	}
	if u, err := st.RequisiteUsage(ctx); err != nil || u.URLs != 2 || u.Bodies != 3 || u.Bytes == 0 {
		t.Errorf("usage %+v, %v", u, err)
	}
}

func TestLinkTargetsAndNearestVersions(t *testing.T) {
	ctx := context.Background()
	st := openTest(t)
	cr, err := st.CreateCrawl(ctx, "k", []string{"http://a.test/"}, "site", []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	var targets []Target
	for _, p := range []string{"/", "/old", "/older", "/loop1", "/loop2", "/failed", "/moved", "/queued"} {
		targets = append(targets, Target{URL: "http://a.test" + p, Origin: "http://a.test", Kind: "a", Follow: true})
	}
	if _, err := st.Enqueue(ctx, cr.ID, targets); err != nil {
		t.Fatal(err)
	}
	id := func(p string) int64 {
		st.Writer().Flush(ctx)
		id, err := st.PageID(ctx, "http://a.test"+p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return id
	}
	save := func(r *Result) {
		t.Helper()
		r.CrawlID = cr.ID
		if _, err := st.SaveResult(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	fetched := func(p, hash string, at int64) {
		save(&Result{PageID: id(p), URL: "http://a.test" + p, State: StateFetched, Status: 200, ContentType: "text/html",
			Hash: hash, Blob: []byte(hash), Codec: "identity", Doc: &Doc{Title: p}, FetchedAt: at})
	}
	redirect := func(p, to string) {
		save(&Result{PageID: id(p), URL: "http://a.test" + p, State: StateRedirected, Status: 301, Reason: "redirect",
			FinalURL: "http://a.test" + to})
	}
	fetched("/", "v1", 1000)
	fetched("/", "v2", 2000)
	fetched("/", "v3", 3000)
	redirect("/old", "/older")
	redirect("/older", "/")
	redirect("/loop1", "/loop2")
	redirect("/loop2", "/loop1")
	save(&Result{PageID: id("/failed"), URL: "http://a.test/failed", State: StateFailed, Status: 404, Reason: "not-found"})
	redirect("/moved", "/failed")
	st.Writer().Flush(ctx)

	root := id("/")
	for _, tc := range []struct {
		path string
		want LinkTarget
	}{
		{"/", LinkTarget{Page: root}},
		{"/old", LinkTarget{Page: root}},
		{"/loop1", LinkTarget{Known: id("/loop1")}},
		{"/failed", LinkTarget{Known: id("/failed")}},
		{"/moved", LinkTarget{Known: id("/moved")}},
		{"/queued", LinkTarget{Known: id("/queued")}},
		{"/unknown", LinkTarget{}},
	} {
		got, err := st.LinkTarget(ctx, "http://a.test"+tc.path)
		if err != nil || got != tc.want {
			t.Errorf("LinkTarget(%s) = %+v, %v; want %+v", tc.path, got, err, tc.want)
		}
	}

	for at, want := range map[int64]string{0: "v1", 1400: "v1", 1600: "v2", 2600: "v3", 99999: "v3"} {
		v, err := st.NearestVersion(ctx, root, at)
		if err != nil || v.Hash != want {
			t.Errorf("NearestVersion(%d) = %s, %v; want %s", at, v.Hash, err, want)
		}
	}
	if _, err := st.NearestVersion(ctx, id("/failed"), 0); !errors.Is(err, ErrNotFound) {
		t.Errorf("a page without versions: %v", err)
	}

	// Requisites are gathered once per body.
	todo, err := st.PagesWithoutRequisites(ctx, cr.ID, 0, 0, 10)
	if err != nil || len(todo) != 1 || todo[0].ID != root || todo[0].Hash != "v3" {
		t.Fatalf("PagesWithoutRequisites = %+v, %v", todo, err)
	}
	if err := st.RequisitesGathered(ctx, root, "v3", 5); err != nil {
		t.Fatal(err)
	}
	st.Writer().Flush(ctx)
	if todo, _ := st.PagesWithoutRequisites(ctx, cr.ID, 0, 0, 10); len(todo) != 0 {
		t.Errorf("gathered page listed again: %+v", todo)
	}
	if todo, _ := st.PagesWithoutRequisites(ctx, cr.ID, 0, 6, 10); len(todo) != 1 {
		t.Errorf("a page gathered before a refresh run is not listed: %+v", todo)
	}
	fetched("/", "v4", 4000)
	st.Writer().Flush(ctx)
	if todo, _ := st.PagesWithoutRequisites(ctx, cr.ID, 0, 0, 10); len(todo) != 1 || todo[0].Hash != "v4" {
		t.Errorf("a new body is not listed: %+v", todo)
	}
}
