package exchange

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"mundaneum/backend/exchange/record"
	"mundaneum/backend/store"
)

// Source kinds.
const (
	KindPeer = "peer" // another instance's serve, pulled with a token
	KindFile = "file" // a SOIF file imported
)

// ErrNotFound means no source or token has that id (the store's record.ErrNotFound).
var ErrNotFound = record.ErrNotFound

// ErrInvalid means an address or a name given is not usable.
var ErrInvalid = errors.New("invalid")

// Source is where summaries come from.
type Source struct {
	ID        int64  `json:"id"`
	Kind      string `json:"kind"`
	URL       string `json:"url"`
	Name      string `json:"name"` // the Gatherer-Name it sent
	CrawlID   int64  `json:"crawlId"`
	Cursor    Cursor `json:"cursor"`
	CreatedAt int64  `json:"createdAt"`
	PulledAt  int64  `json:"pulledAt,omitempty"`
	Summaries int    `json:"summaries"` // pages whose summary is this source's now
	Error     string `json:"error,omitempty"`
	token     string
}

// PeerURL checks and normalises the address of another instance: http or https, a host,
// no user, query or fragment.
func PeerURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%w: %q: only http and https addresses are pulled from", ErrInvalid, raw)
	}
	if u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%w: %q: give the address serve prints, http://host:port/", ErrInvalid, raw)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.Path = strings.TrimSuffix(u.Path, Path)
	u.RawPath = ""
	return strings.TrimSuffix(u.String(), "/") + "/", nil
}

// AddPeer adds another instance as a source, with the token it issued.
func AddPeer(ctx context.Context, st SourceStore, raw, token string) (Source, error) {
	u, err := PeerURL(raw)
	if err != nil {
		return Source{}, err
	}
	token = strings.TrimSpace(token)
	if token == "" || len(token) > 512 || strings.ContainsAny(token, " \t\r\n") {
		return Source{}, fmt.Errorf("%w: give the token the other instance issued (mundaneum token issue there)", ErrInvalid)
	}
	_, err = st.ExchangeSourceAt(ctx, KindPeer, u)
	if err == nil {
		return Source{}, fmt.Errorf("%w: %s is a source already (source remove, then add it again for a new token)", ErrInvalid, u)
	}
	if !errors.Is(err, record.ErrNotFound) {
		return Source{}, err
	}
	return addSource(ctx, st, KindPeer, u, token)
}

// fileSource returns the source of a SOIF file of this name, made on first use.
func fileSource(ctx context.Context, st SourceStore, name string) (Source, error) {
	r, err := st.ExchangeSourceAt(ctx, KindFile, name)
	if err == nil {
		return sourceOf(r), nil
	}
	if !errors.Is(err, record.ErrNotFound) {
		return Source{}, err
	}
	return addSource(ctx, st, KindFile, name, "")
}

func addSource(ctx context.Context, st SourceStore, kind, u, token string) (Source, error) {
	id, err := st.AddExchangeSource(ctx, record.Source{Kind: kind, URL: u, Token: token, CreatedAt: time.Now().UnixMilli()})
	if err != nil {
		return Source{}, err
	}
	return Get(ctx, st, id)
}

func sourceOf(r record.Source) Source {
	return Source{ID: r.ID, Kind: r.Kind, URL: r.URL, Name: r.Name, CrawlID: r.CrawlID,
		Cursor: Cursor{Seq: r.Cursor, Time: r.CursorTime}, CreatedAt: r.CreatedAt, PulledAt: r.PulledAt,
		Summaries: r.Summaries, Error: r.Error, token: r.Token}
}

// Get returns the source id.
func Get(ctx context.Context, st SourceStore, id int64) (Source, error) {
	r, err := st.ExchangeSource(ctx, id)
	if errors.Is(err, record.ErrNotFound) {
		return Source{}, fmt.Errorf("source %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Source{}, err
	}
	return sourceOf(r), nil
}

// List returns the sources, oldest first.
func List(ctx context.Context, st SourceStore) ([]Source, error) {
	rs, err := st.ExchangeSources(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Source, len(rs))
	for i, r := range rs {
		out[i] = sourceOf(r)
	}
	return out, nil
}

// Remove forgets a source: its pages stay (searchable, no longer marked), and its next
// add pulls everything again.
func Remove(ctx context.Context, st SourceStore, id int64) error {
	if _, err := Get(ctx, st, id); err != nil {
		return err
	}
	return st.RemoveExchangeSource(ctx, id)
}

// ensureCrawl gives a source the import crawl its pages join, on its first pull (the
// crawl is made by the process that owns the workspace: adding a source is a short write).
func ensureCrawl(ctx context.Context, st ImportStore, src *Source) error {
	if src.CrawlID != 0 {
		return nil
	}
	cfg, _ := json.Marshal(map[string]any{"import": map[string]string{"format": "soif", "source": src.URL}})
	c, err := st.CreateCrawl(ctx, fmt.Sprintf("source %d %s %s", src.ID, src.Kind, src.URL), []string{}, store.ScopeImport, cfg)
	if err != nil {
		return err
	}
	if err := st.SetExchangeSourceCrawl(ctx, src.ID, c.ID); err != nil {
		return err
	}
	src.CrawlID = c.ID
	return nil
}

// finishPull records a pull's outcome on its source: the new cursor only when it applied.
func finishPull(ctx context.Context, st SourceStore, src Source, rep ImportReport, pullErr error) error {
	ctx = context.WithoutCancel(ctx)
	if pullErr != nil {
		return st.ExchangeSourceFailed(ctx, src.ID, pullErr.Error())
	}
	return st.ExchangeSourcePulled(ctx, src.ID, record.Pulled{Cursor: rep.Cursor.Seq, CursorTime: rep.Cursor.Time,
		Gatherer: rep.Gatherer, At: time.Now().UnixMilli()})
}

// ImportFile reads a SOIF stream (plain or gzip; a Mundaneum export or another Gatherer's)
// from a file called name into the workspace, as summaries of the file's source: checked
// whole first, so that a broken file applies nothing.
func ImportFile(ctx context.Context, st ImportStore, name string, r io.Reader, opt ImportOptions) (ImportReport, error) {
	src, err := fileSource(ctx, st, name)
	if err != nil {
		return ImportReport{}, err
	}
	rep, err := run(ctx, st, src, r, opt)
	if ferr := finishPull(ctx, st, src, rep, err); ferr != nil && err == nil {
		err = ferr
	}
	return rep, err
}
