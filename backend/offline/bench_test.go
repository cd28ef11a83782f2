package offline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"mundaneum/backend/store"
)

// BenchmarkMake makes the copy of a page the size of a manual's chapter (60 KB, 300 links
// to 150 stored pages, a style sheet and an image): what the window and serve do for each
// link followed in a copy, before the browser shows it.
func BenchmarkMake(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, b.TempDir()+"/w.mundaneum", store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	cr, err := st.CreateCrawl(ctx, "k", []string{host + "/"}, "site", []byte(`{}`))
	if err != nil {
		b.Fatal(err)
	}
	var targets []store.Target
	for i := range 150 {
		targets = append(targets, store.Target{URL: fmt.Sprintf("%s/ch%d.html", host, i), Origin: host, Kind: "a", Follow: true})
	}
	if _, err := st.Enqueue(ctx, cr.ID, targets); err != nil {
		b.Fatal(err)
	}
	st.Writer().Flush(ctx)
	var page strings.Builder
	page.WriteString(`<!doctype html><html><head><title>Chapter</title><link rel="stylesheet" href="/style.css"></head><body><h1>Chapter</h1>`)
	for i := range 300 {
		fmt.Fprintf(&page, `<p>Paragraph %d of the chapter, with <code>code</code> and <a href="ch%d.html#s%d">a link</a> to another section.</p>`, i, i%150, i)
		if i%50 == 0 {
			page.WriteString(`<pre>SELECT * FROM cards WHERE drawer = 7;</pre><img src="/fig.png" alt="A figure">`)
		}
	}
	page.WriteString(`</body></html>`)
	for i := range 150 {
		u := fmt.Sprintf("%s/ch%d.html", host, i)
		id, err := st.PageID(ctx, u)
		if err != nil {
			b.Fatal(err)
		}
		body := page.String()
		sum := sha256.Sum256([]byte(body + u))
		if _, err := st.SaveResult(ctx, &store.Result{CrawlID: cr.ID, PageID: id, URL: u, State: store.StateFetched, Status: 200,
			ContentType: "text/html", Hash: hex.EncodeToString(sum[:]), Blob: []byte(body), Codec: "identity",
			Doc: &store.Doc{Title: "Chapter"}}); err != nil {
			b.Fatal(err)
		}
	}
	for _, r := range []store.RequisiteFetch{
		{URL: host + "/style.css", FetchedAt: 1, Kind: "stylesheet", Status: 200, ContentType: "text/css", Body: []byte(strings.Repeat(`h1{color:navy}p code{background:#eee}`, 100))},
		{URL: host + "/fig.png", FetchedAt: 1, Kind: "image", Status: 200, ContentType: "image/png", Body: png},
	} {
		if err := st.SaveRequisite(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	st.Writer().Flush(ctx)
	src := Source{PageID: 1, URL: host + "/ch0.html", Body: []byte(page.String()), ContentType: "text/html", At: 2}
	b.SetBytes(int64(len(src.Body)))
	b.ResetTimer()
	for b.Loop() {
		c, err := Make(ctx, st, src)
		if err != nil || !strings.Contains(c.Document, "data-mundaneum-page") {
			b.Fatal(err)
		}
	}
}
