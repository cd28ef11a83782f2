package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"mundaneum/backend/index"
	"mundaneum/backend/store"
	termfile "mundaneum/backend/vocab"
)

// genStats describes a generated workspace.
type genStats struct {
	Pages      int     `json:"pages"`
	Duplicates int     `json:"duplicates"`
	Resources  int     `json:"resources"`
	Dead       int     `json:"dead"`
	Links      int     `json:"links"`
	FTSRows    int     `json:"ftsRows"`
	TextBytes  int64   `json:"textBytes"` // indexed text
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpuSeconds"` // user+system time of the generating process
	Bytes      int64   `json:"bytes"`      // workspace file size
}

// baseTime is "now" for the synthetic web (2026-01-01 UTC): fetch and change times lie in
// the two years before it.
const baseTime = int64(1767225600000)

type pageRow struct {
	id, host, crawl                 int
	url, state, reason, ctype, lang string
	title, hash, lastMod            string
	status, size, depth, dupOf      int
	discovered, fetched, changed    int64
}

type linkRow struct {
	from, to     int
	kind, anchor string
}

// ftsRow is what the index will hold of a page (counted for the statistics; the index is
// built from the workspace afterwards, see buildIndex).
type ftsRow struct {
	id                                  int
	title, headings, body, anchors, url string
}

// batch is one writer operation's worth of rows.
type batch struct {
	pages []pageRow
	links []linkRow
	fts   []ftsRow
	texts []textRow
}

// textRow is a page's stored text, packed by the producer.
type textRow struct {
	id   int
	text store.PackedText
}

// generate writes the synthetic web of m into a new workspace at path through the store's
// writer, batchSize pages per transaction. Its index is derived data, built by buildIndex.
func generate(ctx context.Context, m *model, path string, batchSize int, logf func(string, ...any)) (genStats, error) {
	start, cpu0 := time.Now(), cpuTime()
	st, err := store.Open(ctx, path, store.Options{BatchSize: 1}) // one operation per transaction
	if err != nil {
		return genStats{}, err
	}
	defer st.Close()
	w := st.Writer()

	// Incoming anchor variants of every page, for the statistics of what will be indexed.
	bits := make([]uint16, m.total()+1)
	var buf []link
	var stats genStats
	for id := 1; id <= m.n; id++ {
		buf = m.outlinks(id, buf)
		for _, l := range buf {
			bits[l.to] |= 1 << l.code
		}
		stats.Links += len(buf)
		if m.isDup(id) {
			stats.Duplicates++
		}
	}
	stats.Pages, stats.Resources, stats.Dead = m.n, m.nres, m.ndead
	logf("layout: %d pages (%d duplicates), %d resources, %d dead links, %d links (%.1fs)",
		m.n, stats.Duplicates, m.nres, m.ndead, stats.Links, time.Since(start).Seconds())

	if err := w.Do(ctx, func(tx *store.Tx) error { return insertHostsCrawls(ctx, tx, m) }); err != nil {
		return stats, fmt.Errorf("hosts: %w", err)
	}
	batches := make(chan batch, 2)
	produceErr := make(chan error, 1)
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { produceErr <- produce(pctx, m, bits, batchSize, batches) }()
	last := time.Now()
	done := 0
	phaseB := true
	for b := range batches {
		if phaseB && len(b.pages) == 0 {
			phaseB = false
			logf("  page rows written (%.0fs)", time.Since(start).Seconds())
		}
		if err := w.Do(ctx, func(tx *store.Tx) error { return writeBatch(ctx, tx, b) }); err != nil {
			cancel()
			for range batches {
			}
			return stats, err
		}
		stats.FTSRows += len(b.fts)
		for _, f := range b.fts {
			stats.TextBytes += int64(len(f.title) + len(f.headings) + len(f.body) + len(f.anchors) + len(f.url))
		}
		done += len(b.pages) + len(b.fts)
		if time.Since(last) > 15*time.Second {
			last = time.Now()
			logf("  %d/%d rows (%.0fs)", done, 2*m.total(), time.Since(start).Seconds())
		}
	}
	if err := <-produceErr; err != nil {
		return stats, err
	}
	if err := w.Flush(ctx); err != nil {
		return stats, err
	}
	if err := st.Close(); err != nil {
		return stats, err
	}
	stats.Seconds = time.Since(start).Seconds()
	stats.CPUSeconds = (cpuTime() - cpu0).Seconds()
	stats.Bytes = fileSize(path)
	return stats, nil
}

// buildIndex opens the workspace for writing, as the app does: its index is brought up to
// date (built from the stored pages when there is none, or one of an older format), then
// settles: the pair index built, the segments merged. It reports progress every 15 seconds,
// and does nothing that shows when the index is current.
func buildIndex(ctx context.Context, path string, logf func(string, ...any)) error {
	st, err := store.Open(ctx, path, store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()
	idx, err := index.Open(ctx, st)
	if err != nil {
		return err
	}
	defer idx.Close()
	// As the app does: the index writes the file of its terms once settled.
	idx.KeepVocabularyFile(termfile.WriteFile)
	start, last := time.Now(), time.Now()
	err = idx.Settle(ctx, func(p index.Progress) {
		if time.Since(last) > 15*time.Second {
			last = time.Now()
			logf("  index: %s; phrase index %d of %d rows (%.0fs)", p, p.Pairs.Done, p.Pairs.Total, time.Since(start).Seconds())
		}
	})
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if d := time.Since(start); d > time.Second {
		logf("indexed in %.0fs: %s; %.2f GB (load %s)", d.Seconds(), idx.Progress(ctx), float64(fileSize(index.Path(path)))/1e9, loadavg())
	}
	return idx.Close()
}

func insertHostsCrawls(ctx context.Context, tx *store.Tx, m *model) error {
	for i, h := range m.hosts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO hosts(id, origin) VALUES (?, ?)`, i+1, h.origin); err != nil {
			return err
		}
	}
	for c := 1; c <= 3; c++ {
		var seeds []string
		for _, h := range m.hosts {
			if h.crawl == c {
				seeds = append(seeds, h.origin+"/")
			}
		}
		js, _ := json.Marshal(seeds)
		_, err := tx.ExecContext(ctx, `INSERT INTO crawls(id, key, seeds, scope, config, state, runs, created_at,
			started_at, finished_at, fetched) VALUES (?, ?, ?, 'list', '{}', 'done', 1, ?, ?, ?, ?)`,
			c, "list "+strings.Join(seeds, " "), string(js), baseTime-800*86400000, baseTime-800*86400000, baseTime, 0)
		if err != nil {
			return err
		}
	}
	return nil
}

// produce emits the page rows of every id first (links need their targets to exist: the
// schema's foreign keys are on), then links and index rows in id order.
func produce(ctx context.Context, m *model, bits []uint16, size int, out chan<- batch) error {
	defer close(out)
	send := func(b batch) error {
		select {
		case out <- b:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	total := m.total()
	for lo := 1; lo <= total; lo += size {
		var b batch
		for id := lo; id < min(lo+size, total+1); id++ {
			b.pages = append(b.pages, m.pageRow(id))
		}
		if err := send(b); err != nil {
			return err
		}
	}
	var buf []link
	for lo := 1; lo <= total; lo += size {
		var b batch
		for id := lo; id < min(lo+size, total+1); id++ {
			switch {
			case id <= m.n:
				buf = m.outlinks(id, buf)
				for _, l := range buf {
					kind := "a"
					if l.to > m.n && l.to <= m.n+m.nres {
						_, _, e := m.resource(l.to - m.n - 1)
						kind = exts[e].kind
					}
					b.links = append(b.links, linkRow{from: id, to: l.to, kind: kind, anchor: m.anchorText(l.to, l.code)})
				}
				if !m.isDup(id) {
					f := ftsRow{id: id, title: m.title(id), headings: m.headings(id),
						body: m.body(id), anchors: m.anchors(id, bits[id]), url: m.url(id)}
					b.fts = append(b.fts, f)
					b.texts = append(b.texts, textRow{id: id, text: store.PackText(store.PageText{Title: f.title, Headings: f.headings, Body: f.body})})
				}
			case id <= m.n+m.nres:
				b.fts = append(b.fts, m.resourceFTS(id, bits[id]))
			}
		}
		if err := send(b); err != nil {
			return err
		}
	}
	return nil
}

// resourceFTS is the index row of a resource: the titles of the pages citing it as headings,
// the anchors of the links to it, and its URL, as the store indexes resources.
func (m *model) resourceFTS(id int, bits uint16) ftsRow {
	r := id - m.n - 1
	url, _, _ := m.resource(r)
	var titles []string
	seen := map[string]bool{}
	p := m.resOwner(r) // the citing pages: p and p+7
	for _, c := range []int{p, p + 7} {
		if c <= m.n {
			if t := m.title(m.content(c)); !seen[t] {
				seen[t] = true
				titles = append(titles, t)
			}
		}
	}
	return ftsRow{id: id, headings: strings.Join(titles, " | "), anchors: m.anchors(id, bits), url: url}
}

func (m *model) pageRow(id int) pageRow {
	r := m.rng(id, streamMeta+100)
	fetched := baseTime - r.Int64N(730*86400000)
	p := pageRow{id: id, discovered: fetched - r.Int64N(3600000)}
	switch {
	case id <= m.n:
		c := m.content(id)
		h := int(m.hostOf[id-1])
		p.host, p.crawl, p.url, p.lang = h, m.hosts[h].crawl, m.url(id), m.hosts[h].lang
		p.state, p.status, p.ctype, p.title, p.hash = store.StateFetched, 200, "text/html", m.title(c), m.hash(c)
		p.size = 14*m.bodyLen(c) + 2*len(p.title) + 1500 // about the HTML of the page
		if c != id {
			p.dupOf = c
		}
		p.fetched = fetched
		p.changed = fetched - r.Int64N(365*86400000)
		p.lastMod = time.UnixMilli(p.changed).UTC().Format(http.TimeFormat)
		if p.url != m.hosts[h].origin+"/" {
			p.depth = 1 + r.IntN(5)
		}
	case id <= m.n+m.nres:
		var e int
		p.url, _, e = m.resource(id - m.n - 1)
		p.host = hostIndex(m, p.url)
		p.crawl = m.hosts[p.host].crawl
		p.state, p.reason, p.ctype, p.depth = store.StateSkipped, store.ReasonType, exts[e].mime, 2
	default:
		p.url, _, p.host = m.dead(id - m.n - m.nres - 1)
		p.crawl = m.hosts[p.host].crawl
		p.state, p.reason, p.status, p.ctype, p.depth = store.StateFailed, "not-found", 404, "text/html", 2
		p.fetched = fetched
	}
	return p
}

func hostIndex(m *model, url string) int {
	for i, h := range m.hosts {
		if strings.HasPrefix(url, h.origin+"/") {
			return i
		}
	}
	return 0
}

func nullable[T comparable](v T) any {
	var zero T
	if v == zero {
		return nil
	}
	return v
}

func writeBatch(ctx context.Context, tx *store.Tx, b batch) error {
	if len(b.pages) > 0 {
		ins, err := tx.Stmt(ctx, `INSERT INTO pages(id, url, host_id, crawl_id, state, reason, status,
			content_type, charset, lang, title, size, hash, duplicate_of, last_modified, depth,
			discovered_at, fetched_at, changed_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
		if err != nil {
			return err
		}
		for _, p := range b.pages {
			charset := ""
			if p.state == store.StateFetched {
				charset = "utf-8"
			}
			if _, err := ins.ExecContext(ctx, p.id, p.url, p.host+1, p.crawl, p.state, nullable(p.reason),
				nullable(p.status), p.ctype, nullable(charset), nullable(p.lang), nullable(p.title),
				nullable(p.size), nullable(p.hash), nullable(p.dupOf), nullable(p.lastMod), p.depth,
				p.discovered, nullable(p.fetched), nullable(p.changed)); err != nil {
				return fmt.Errorf("page %d %s: %w", p.id, p.url, err)
			}
		}
	}
	if len(b.links) > 0 {
		ins, err := tx.Stmt(ctx, `INSERT INTO links(from_id, to_id, kind, anchor) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		for _, l := range b.links {
			if _, err := ins.ExecContext(ctx, l.from, l.to, l.kind, l.anchor); err != nil {
				return fmt.Errorf("link %d -> %d: %w", l.from, l.to, err)
			}
		}
	}
	if len(b.texts) > 0 {
		ins, err := tx.Stmt(ctx, `INSERT INTO page_text(page_id, codec, data) VALUES (?, ?, ?)`)
		if err != nil {
			return err
		}
		for _, t := range b.texts {
			if _, err := ins.ExecContext(ctx, t.id, t.text.Codec(), t.text.Data()); err != nil {
				return fmt.Errorf("text %d: %w", t.id, err)
			}
		}
	}
	return nil
}
