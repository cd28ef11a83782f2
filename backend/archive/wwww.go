package archive

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/extract"
	"mundaneum/backend/formats/wwww"
	"mundaneum/backend/rules"
	"mundaneum/backend/store"
	"mundaneum/backend/urlnorm"
)

// The kinds of link the WWWW archive records: R lines for references a reader follows,
// I lines for inlined images; style sheets, scripts and forms are plumbing, left out.
var (
	refKinds   = map[string]bool{"a": true, "area": true, "frame": true, "iframe": true, "refresh": true, "embed": true, "object": true, "media": true, "text": true, "redirect": true}
	imageKinds = map[string]bool{"img": true}
)

// exportWWWW writes a crawl as the WWWW archive: for each page opened (fetched), its T line,
// an R or I line for each of its references, and a C line when every page it leads to has
// been processed (the crawl's queue holds none of them).
func exportWWWW(ctx context.Context, st *store.Store, out io.Writer, opt ExportOptions) (ExportReport, error) {
	rep := ExportReport{Format: "wwww", CrawlID: opt.CrawlID}
	if opt.CrawlID != 0 {
		if _, err := st.Crawl(ctx, opt.CrawlID); err != nil {
			return rep, fmt.Errorf("crawl %d: %w", opt.CrawlID, err)
		}
	}
	open, err := st.Unfinished(ctx, opt.CrawlID)
	if err != nil {
		return rep, err
	}
	cw := &countWriter{w: out}
	w := wwww.NewWriter(cw)
	start := time.Now()
	var after int64
	for {
		ps, err := st.ExportPages(ctx, opt.CrawlID, after, exportBatch)
		if err != nil {
			return rep, err
		}
		if len(ps) == 0 {
			break
		}
		for _, p := range ps {
			after = p.ID
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			if err := w.Write(wwww.Line{Kind: wwww.Title, URL: p.URL, Text: p.Title}); err != nil {
				return rep, err
			}
			rep.Records++
			rep.Responses++
			links, err := st.Links(ctx, p.ID)
			if err != nil {
				return rep, err
			}
			for _, l := range links {
				line := wwww.Line{URL: l.URL, HTML: p.URL, Text: l.Anchor}
				switch {
				case refKinds[l.Kind]:
					line.Kind = wwww.Ref
				case imageKinds[l.Kind]:
					line.Kind = wwww.Image
					if line.Text == "" {
						line.Text = p.Title // the paper: an image is associated with its page's title
					}
				default:
					continue
				}
				if err := w.Write(line); err != nil {
					return rep, err
				}
				rep.Records++
			}
			if !open[p.ID] {
				if err := w.Write(wwww.Line{Kind: wwww.Complete, URL: p.URL}); err != nil {
					return rep, err
				}
				rep.Records++
			}
		}
		if opt.Progress != nil {
			opt.Progress(Progress{Done: int64(rep.Responses), Pages: int64(rep.Responses), Elapsed: time.Since(start)})
		}
	}
	if err := w.Flush(); err != nil {
		return rep, err
	}
	rep.Bytes = cw.n
	return rep, nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// maxWWWWLines bounds the lines an import reads (the Worm's own archive had about 300,000).
const maxWWWWLines = 10_000_000

// wpage is an HTML file of a WWWW archive.
type wpage struct {
	url      *url.URL
	line     int
	title    string
	titled   bool // a T line names it
	complete bool // a C line names it
	refs     []store.Target
	cited    bool // some other page's R line references it
}

// importWWWW records what a WWWW archive says (each opened HTML file as a fetched page with
// its title and its references with their anchor text, so that search finds them as the
// Worm's did) and seeds a rerun: a crawl from the archive's starting pages (those no other
// page references) that fetches every page the archive did not complete and none that it
// did, whose stored references it follows instead (section 3.2.2 of the paper).
func importWWWW(ctx context.Context, st *store.Store, r io.Reader, opt ImportOptions) (ImportReport, error) {
	rep := ImportReport{Format: "wwww"}
	start := time.Now()
	cr := &countReader{r: r}
	pages, order, err := readWWWW(cr, &rep)
	rep.Bytes = cr.n.Load()
	if err != nil {
		return rep, err
	}
	cfgJSON, _ := json.Marshal(map[string]any{"import": map[string]string{"format": "wwww", "file": opt.Name}})
	c, err := st.CreateCrawl(ctx, "import wwww "+opt.Name+" "+time.Now().UTC().Format(time.RFC3339Nano),
		[]string{}, store.ScopeImport, cfgJSON)
	if err != nil {
		return rep, err
	}
	rep.CrawlID = c.ID
	if err := st.StartRun(ctx, c.ID, cfgJSON, true); err != nil {
		return rep, err
	}
	now := time.Now()
	var seeds []string
	var saveErr error
	for i, key := range order {
		p := pages[key]
		if ctx.Err() != nil {
			saveErr = ctx.Err()
			break
		}
		doc := &store.Doc{Title: p.title}
		if p.title == "" {
			doc.Problems = []string{extract.ProblemNoTitle}
		}
		res := &store.Result{URL: key, CrawlID: c.ID, State: store.StateFetched, Status: 200, FetchedAt: now.UnixMilli(),
			ContentType: "text/html", Doc: doc, Links: p.refs, ReplaceLinks: true}
		if p.complete {
			res.RefreshAt = crawl.RefreshAt(nil, now) // not due: the rerun follows its stored references
		}
		out, err := st.ImportResult(context.WithoutCancel(ctx), res, store.Target{URL: key, Origin: urlnorm.Origin(p.url), Kind: "seed"}, true)
		if err != nil {
			saveErr = err
			break
		}
		if out.Kept {
			rep.Kept++
		} else {
			rep.Pages++
		}
		if !p.cited {
			seeds = append(seeds, key)
		}
		if opt.Progress != nil && i%500 == 0 {
			opt.Progress(Progress{Done: rep.Bytes, Total: opt.Size, Pages: int64(rep.Pages), Elapsed: time.Since(start)})
		}
	}
	state := store.CrawlDone
	if saveErr != nil {
		state = store.CrawlFailed
		if ctx.Err() != nil {
			state = store.CrawlCancelled
		}
	}
	if err := crawl.Finish(ctx, st, opt.Index, c.ID, state, errString(saveErr), func(string) {}); err != nil && saveErr == nil {
		saveErr = err
	}
	if saveErr != nil {
		return rep, saveErr
	}
	if len(seeds) == 0 && len(order) > 0 {
		seeds = []string{order[0]}
	}
	if len(seeds) > 0 {
		scope := opt.Scope
		if scope == "" {
			scope = crawl.ScopeSite
		}
		rc, err := crawl.Prepare(ctx, st, crawl.Config{Seeds: seeds, Scope: scope, MaxDepth: opt.MaxDepth, Delay: -1})
		if err != nil {
			return rep, fmt.Errorf("seed the rerun: %w", err)
		}
		rep.RerunCrawlID = rc.ID
		// The pages the archive opened and did not complete are the rerun's work, wherever
		// they are: queued in it, they are what an export of the workspace calls unfinished
		// (no C line) until the rerun has read them.
		var todo []store.Target
		for _, key := range order {
			if p := pages[key]; !p.complete {
				// Read again like a seed: the archive's own imperative, whatever the rules say.
				todo = append(todo, store.Target{URL: key, Origin: urlnorm.Origin(p.url), Kind: "seed", Follow: true,
					Category: uint8(rules.First)})
			}
		}
		if len(todo) > 0 {
			if _, err := st.Enqueue(ctx, rc.ID, todo); err != nil {
				return rep, fmt.Errorf("seed the rerun: %w", err)
			}
			if err := st.Flush(ctx); err != nil {
				return rep, fmt.Errorf("seed the rerun: %w", err)
			}
		}
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// readWWWW reads an archive into its pages (by canonical URL, in the order they appear).
func readWWWW(r io.Reader, rep *ImportReport) (map[string]*wpage, []string, error) {
	pages := map[string]*wpage{}
	var order []string
	page := func(raw string, n int) (*wpage, string) {
		u, err := urlnorm.Parse(raw)
		if err != nil {
			rep.problem(fmt.Sprintf("line %d", n), raw, err.Error())
			return nil, ""
		}
		key := u.String()
		p := pages[key]
		if p == nil {
			p = &wpage{url: u, line: n}
			pages[key] = p
		}
		return p, key
	}
	rd := wwww.NewReader(r)
	for {
		l, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var le *wwww.LineError
		if errors.As(err, &le) {
			rep.problem(fmt.Sprintf("line %d", le.N), "", le.Err.Error())
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		rep.Records++
		if rep.Records > maxWWWWLines {
			return nil, nil, fmt.Errorf("more than %d lines: not a WWWW archive this import can take", maxWWWWLines)
		}
		switch l.Kind {
		case wwww.Title, wwww.Complete:
			p, key := page(l.URL, l.N)
			if p == nil {
				continue
			}
			if !p.titled {
				order = append(order, key)
			}
			p.titled = true
			if l.Kind == wwww.Title {
				p.title = l.Text
			} else {
				p.complete = true
			}
		case wwww.Ref, wwww.Image:
			from, fromKey := page(l.HTML, l.N)
			to, err := urlnorm.Parse(l.URL)
			if from == nil {
				continue
			}
			if err != nil {
				rep.problem(fmt.Sprintf("line %d", l.N), l.URL, err.Error())
				continue
			}
			if pages[fromKey] != nil && !from.titled {
				order = append(order, fromKey)
				from.titled = true
			}
			t := store.Target{URL: to.String(), Origin: urlnorm.Origin(to), Kind: "a", Anchor: l.Text,
				Skip: ReasonNotArchived, Pos: len(from.refs) + 1}
			if l.Kind == wwww.Image {
				t.Kind = "img"
			}
			if t.Kind == "img" || !crawl.LooksLikePage(to) {
				t.Skip, t.Resource = crawl.ReasonType, true
			}
			from.refs = append(from.refs, t)
			if cited := pages[to.String()]; cited != nil && to.String() != fromKey {
				cited.cited = true
			} else if cited == nil && to.String() != fromKey {
				pages[to.String()] = &wpage{url: to, line: l.N, cited: true}
			}
		}
	}
	// Keep only the HTML files the archive says were opened; the others were references.
	for k, p := range pages {
		if !p.titled {
			delete(pages, k)
		}
	}
	return pages, order, nil
}
