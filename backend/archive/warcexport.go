package archive

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"mundaneum/backend/crawl"
	"mundaneum/backend/fetch"
	"mundaneum/backend/formats/warc"
	"mundaneum/backend/store"
)

// exportBatch is how many versions an export reads at a time.
const exportBatch = 256

// warcExport writes one WARC file: a warcinfo record, then for each version of each page
// (in page and time order) a request (for the crawl's own fetches), a response with the
// body, and a metadata record; or a revisit when an earlier record has the same body; and a
// revisit for the last time the server confirmed a content (304: server-not-modified).
type warcExport struct {
	st      *store.Store
	w       *warc.Writer
	opt     ExportOptions
	salt    [16]byte
	info    string                  // the warcinfo record's id
	crawls  map[int64]crawlIdentity // how each crawl identified itself
	digests map[string]string       // content hash -> WARC payload digest, of bodies written lately
	rep     ExportReport
}

type crawlIdentity struct {
	userAgent, from string
	imported        bool // an import: no request of ours to write
}

func exportWARC(ctx context.Context, st *store.Store, out io.Writer, opt ExportOptions) (ExportReport, error) {
	e := &warcExport{st: st, w: warc.NewWriter(out, opt.Compress), opt: opt, crawls: map[int64]crawlIdentity{},
		digests: map[string]string{}}
	e.rep = ExportReport{Format: "warc", CrawlID: opt.CrawlID}
	_, _ = rand.Read(e.salt[:])
	total, err := st.CountExportVersions(ctx, opt.CrawlID)
	if err != nil {
		return e.rep, err
	}
	if err := e.warcinfo(ctx); err != nil {
		return e.rep, err
	}
	start := time.Now()
	var cur store.ExportCursor
	done := 0
	for {
		vs, next, err := st.ExportVersions(ctx, opt.CrawlID, cur, exportBatch)
		if err != nil {
			return e.rep, err
		}
		if len(vs) == 0 {
			break
		}
		for _, v := range vs {
			if err := ctx.Err(); err != nil {
				return e.rep, err
			}
			if err := e.version(ctx, v); err != nil {
				return e.rep, err
			}
			done++
		}
		cur = next
		if opt.Progress != nil {
			opt.Progress(Progress{Done: int64(done), Total: int64(total), Pages: int64(e.rep.Responses),
				Elapsed: time.Since(start)})
		}
	}
	e.rep.Bytes = e.w.Offset()
	return e.rep, nil
}

// id is a record id made from the export's salt, a kind and a version id, so that a
// revisit can name the record it refers to without remembering it.
func (e *warcExport) id(kind string, versionID int64) string {
	h := sha1.New()
	h.Write(e.salt[:])
	fmt.Fprintf(h, "%s %d", kind, versionID)
	b := h.Sum(nil)[:16]
	b[6] = b[6]&0x0f | 0x50 // a name-based (version 5) UUID
	b[8] = b[8]&0x3f | 0x80
	x := hex.EncodeToString(b)
	return "<urn:uuid:" + x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:] + ">"
}

func (e *warcExport) write(h warc.Header, block []byte) error {
	if e.info != "" {
		h.Set("WARC-Warcinfo-ID", e.info)
	}
	e.rep.Records++
	return e.w.WriteRecord(h, block)
}

func (e *warcExport) warcinfo(ctx context.Context) error {
	desc := "every page of a Mundaneum workspace"
	if e.opt.CrawlID != 0 {
		c, err := e.st.Crawl(ctx, e.opt.CrawlID)
		if err != nil {
			return fmt.Errorf("crawl %d: %w", e.opt.CrawlID, err)
		}
		desc = fmt.Sprintf("crawl %d of a Mundaneum workspace (%s scope, seeds %s)", c.ID, c.Scope, strings.Join(c.Seeds, " "))
	}
	e.info = warc.NewRecordID()
	h := warc.Header{{Name: "WARC-Type", Value: warc.TypeWarcinfo}, {Name: "WARC-Record-ID", Value: e.info},
		{Name: "WARC-Date", Value: warc.FormatDate(time.Now())}, {Name: "Content-Type", Value: warc.ContentFields}}
	block := warc.Fields([]warc.Field{
		{Name: "software", Value: "Mundaneum/" + crawl.Version},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "conformsTo", Value: "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
		{Name: "description", Value: desc},
		{Name: "robots", Value: "obey"},
		{Name: "mundaneum-note", Value: "response bodies are stored after content decoding: their Content-Encoding " +
			"and Content-Length are kept as X-Archive-Orig-*; request records are rebuilt from the crawl's settings"},
	})
	err := e.w.WriteRecord(h, block)
	e.rep.Records++
	return err
}

func (e *warcExport) identity(ctx context.Context, crawlID int64) crawlIdentity {
	if id, ok := e.crawls[crawlID]; ok {
		return id
	}
	id := crawlIdentity{imported: true}
	if c, err := e.st.Crawl(ctx, crawlID); err == nil && c.Scope != store.ScopeImport {
		var cfg struct {
			UserAgent string `json:"userAgent"`
			From      string `json:"from"`
		}
		_ = json.Unmarshal(c.Config, &cfg)
		id = crawlIdentity{userAgent: cfg.UserAgent, from: cfg.From}
		if id.userAgent == "" {
			id.userAgent = crawl.UserAgent("")
		}
	}
	e.crawls[crawlID] = id
	return id
}

func (e *warcExport) version(ctx context.Context, v store.ArchivedVersion) error {
	orig, err := e.st.FirstWithHash(ctx, e.opt.CrawlID, v.Hash)
	if err != nil {
		return err
	}
	date := warc.FormatDate(time.UnixMilli(v.FetchedAt))
	respID := e.id("response", v.ID)
	if orig.ID != v.ID {
		// The same body was written before: a revisit of that record.
		if err := e.revisit(ctx, v, respID, date, warc.ProfileIdenticalPayload, orig, ""); err != nil {
			return err
		}
	} else {
		body, err := e.st.BlobBody(ctx, v.Hash)
		if errors.Is(err, store.ErrNotFound) {
			e.rep.Skipped++
			return nil
		}
		if err != nil {
			return err
		}
		if err := e.response(ctx, v, respID, date, body); err != nil {
			return err
		}
	}
	if v.ConfirmedAt > v.FetchedAt {
		profile := warc.ProfileIdenticalPayload
		if v.ConfirmedStatus == http.StatusNotModified {
			profile = warc.ProfileServerNotModified
		}
		self := store.ArchivedVersion{URL: v.URL}
		self.ID, self.FetchedAt = v.ID, v.FetchedAt
		return e.revisit(ctx, v, e.id("confirmed", v.ID), warc.FormatDate(time.UnixMilli(v.ConfirmedAt)), profile, self, respID)
	}
	return nil
}

func (e *warcExport) response(ctx context.Context, v store.ArchivedVersion, id, date string, body []byte) error {
	who := e.identity(ctx, v.CrawlID)
	var reqID string
	if !who.imported {
		reqID = e.id("request", v.ID)
		h := warc.Header{{Name: "WARC-Type", Value: warc.TypeRequest}, {Name: "WARC-Record-ID", Value: reqID},
			{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: v.URL},
			{Name: "WARC-Concurrent-To", Value: id}, {Name: "Content-Type", Value: warc.ContentHTTPRequest}}
		if err := e.write(h, requestBlock(v.URL, who)); err != nil {
			return err
		}
	}
	head := responseHead(v.Version, len(body), false)
	block := make([]byte, 0, len(head)+len(body))
	block = append(append(block, head...), body...)
	h := warc.Header{{Name: "WARC-Type", Value: warc.TypeResponse}, {Name: "WARC-Record-ID", Value: id},
		{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: v.URL},
		{Name: "Content-Type", Value: warc.ContentHTTPResponse}, {Name: "WARC-Payload-Digest", Value: e.remember(v.Hash, body)}}
	if ct := mediaOf(v.ContentType); ct != "" {
		h.Set("WARC-Identified-Payload-Type", ct)
	}
	if reqID != "" {
		h.Add("WARC-Concurrent-To", reqID)
	}
	if err := e.write(h, block); err != nil {
		return err
	}
	e.rep.Responses++
	return e.metadata(ctx, v, id, date)
}

// revisit writes a revisit record of v that refers to the record of version of (its id made
// by e.id("response", of.ID), unless refID names it).
func (e *warcExport) revisit(ctx context.Context, v store.ArchivedVersion, id, date, profile string, of store.ArchivedVersion, refID string) error {
	digest, err := e.digest(ctx, v.Hash)
	if err != nil {
		return err
	}
	if refID == "" {
		refID = e.id("response", of.ID)
	}
	head := []byte(responseHead(v.Version, 0, true))
	if profile == warc.ProfileServerNotModified {
		head = []byte("HTTP/1.1 304 Not Modified\r\n\r\n")
	}
	h := warc.Header{{Name: "WARC-Type", Value: warc.TypeRevisit}, {Name: "WARC-Record-ID", Value: id},
		{Name: "WARC-Date", Value: date}, {Name: "WARC-Target-URI", Value: v.URL},
		{Name: "Content-Type", Value: warc.ContentHTTPResponse}, {Name: "WARC-Profile", Value: profile},
		{Name: "WARC-Refers-To", Value: refID}, {Name: "WARC-Refers-To-Target-URI", Value: of.URL},
		{Name: "WARC-Refers-To-Date", Value: warc.FormatDate(time.UnixMilli(of.FetchedAt))},
		{Name: "WARC-Payload-Digest", Value: digest}}
	e.rep.Revisits++
	return e.write(h, head)
}

func (e *warcExport) metadata(ctx context.Context, v store.ArchivedVersion, respID, date string) error {
	fs := []warc.Field{{Name: "title", Value: v.Title}}
	if v.ParentURL != "" {
		fs = append(fs, warc.Field{Name: "via", Value: v.ParentURL})
	}
	fs = append(fs, warc.Field{Name: "hopsFromSeed", Value: strconv.Itoa(v.Depth)})
	if v.Flag != "" {
		fs = append(fs, warc.Field{Name: "mundaneum-flag", Value: v.Flag})
	}
	if v.Current {
		links, err := e.st.Links(ctx, v.PageID)
		if err != nil {
			return err
		}
		for _, l := range links {
			fs = append(fs, warc.Field{Name: "outlink", Value: l.URL + " " + hopContext(l.Kind)})
		}
	}
	h := warc.Header{{Name: "WARC-Type", Value: warc.TypeMetadata}, {Name: "WARC-Date", Value: date},
		{Name: "WARC-Target-URI", Value: v.URL}, {Name: "WARC-Concurrent-To", Value: respID},
		{Name: "Content-Type", Value: warc.ContentFields}}
	return e.write(h, warc.Fields(fs))
}

// remember computes and keeps the WARC payload digest of a body written, for revisits of it.
func (e *warcExport) remember(hash string, body []byte) string {
	if len(e.digests) >= 4096 {
		clear(e.digests)
	}
	d := warc.Digest(body)
	e.digests[hash] = d
	return d
}

// digest is the WARC payload digest of the body with a content hash.
func (e *warcExport) digest(ctx context.Context, hash string) (string, error) {
	if d, ok := e.digests[hash]; ok {
		return d, nil
	}
	body, err := e.st.BlobBody(ctx, hash)
	if err != nil {
		return "", err
	}
	return e.remember(hash, body), nil
}

// hopContext is Heritrix's hop type and context of a link kind (L a link, E an embed, R a
// redirect).
func hopContext(kind string) string {
	switch kind {
	case "a", "area":
		return "L " + kind + "/@href"
	case "frame", "iframe", "embed", "script":
		return "E " + kind + "/@src"
	case "img":
		return "E img/@src"
	case "link":
		return "E link/@href"
	case "object":
		return "E object/@data"
	case "media":
		return "E source/@src"
	case "refresh":
		return "R meta/@content"
	case "redirect":
		return "R =LOCATION"
	}
	return "L " + kind
}

// requestBlock is the GET the crawler sent for u, as its fetcher builds it.
func requestBlock(raw string, who crawlIdentity) []byte {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var b strings.Builder
	b.WriteString("GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\n")
	b.WriteString("User-Agent: " + oneLine(who.userAgent) + "\r\n")
	if who.from != "" {
		b.WriteString("From: " + oneLine(who.from) + "\r\n")
	}
	b.WriteString("Accept: " + fetch.DefaultAcceptHeader + "\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n")
	return []byte(b.String())
}

// responseHead is the status line and header of a version's response as a WARC stores it
// with the decoded body: the headers describing the wire form (Content-Encoding,
// Transfer-Encoding, Content-Length) are kept as X-Archive-Orig-*, and Content-Length
// gives the body's length (none for a revisit, which has no body).
func responseHead(v store.Version, bodyLen int, revisit bool) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimRight(v.Header, "\r\n"), "\r\n")
	if v.Header == "" || !strings.HasPrefix(lines[0], "HTTP/") {
		b.WriteString("HTTP/1.1 " + strconv.Itoa(v.Status) + " " + http.StatusText(v.Status) + "\r\n")
		if v.ContentType != "" {
			ct := v.ContentType
			if v.Charset != "" {
				ct += "; charset=" + v.Charset
			}
			b.WriteString("Content-Type: " + ct + "\r\n")
		}
		lines = nil
	} else {
		b.WriteString(lines[0] + "\r\n")
		lines = lines[1:]
	}
	for _, l := range lines {
		name, _, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "content-encoding", "transfer-encoding", "content-length":
			b.WriteString("X-Archive-Orig-" + strings.TrimSpace(l) + "\r\n")
			continue
		}
		b.WriteString(l + "\r\n")
	}
	if !revisit {
		b.WriteString("Content-Length: " + strconv.Itoa(bodyLen) + "\r\n")
	}
	b.WriteString("\r\n")
	return b.String()
}

func mediaOf(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
