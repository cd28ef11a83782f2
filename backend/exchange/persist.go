package exchange

import (
	"context"
	"encoding/json"

	"mundaneum/backend/crawl"
	"mundaneum/backend/exchange/record"
	"mundaneum/backend/store"
)

// What exchange keeps, and the store it keeps it in: the interfaces below are written in
// exchange/record's types, and *store.Store implements them (as it does the library's and
// check's). Every write is durable when the method returns, except a token's use count,
// which joins the writer's next batch. A pull's or a file's summaries are pages saved by
// an import crawl's run (PageStore): pages are the store's own model, which every importer
// writes (archive's too), so that interface is written in the store's page types.

// TokenStore keeps the read-only tokens this workspace issued.
type TokenStore interface {
	// AddExchangeToken keeps a token (name, hash of its secret, creation time) and
	// returns its id.
	AddExchangeToken(ctx context.Context, t record.Token) (int64, error)
	// ExchangeTokens lists the tokens, oldest first.
	ExchangeTokens(ctx context.Context) ([]record.Token, error)
	// RevokeExchangeToken ends token id at (unix ms) (record.ErrNotFound).
	RevokeExchangeToken(ctx context.Context, id, at int64) error
	// UseExchangeToken finds the live token of this secret's hash and counts a use at
	// (unix ms) (record.ErrNotFound: unknown or revoked).
	UseExchangeToken(ctx context.Context, hash string, at int64) (int64, error)
}

// SourceStore keeps the sources summaries come from, with their cursors.
type SourceStore interface {
	// AddExchangeSource keeps a new source (kind, URL, token, creation time) and returns
	// its id.
	AddExchangeSource(ctx context.Context, s record.Source) (int64, error)
	// ExchangeSource returns source id (record.ErrNotFound).
	ExchangeSource(ctx context.Context, id int64) (record.Source, error)
	// ExchangeSourceAt returns the first source of this kind and URL (record.ErrNotFound).
	ExchangeSourceAt(ctx context.Context, kind, url string) (record.Source, error)
	// ExchangeSources lists the sources, oldest first.
	ExchangeSources(ctx context.Context) ([]record.Source, error)
	// RemoveExchangeSource forgets source id and its marks on pages.
	RemoveExchangeSource(ctx context.Context, id int64) error
	// SetExchangeSourceCrawl gives source id the import crawl its pages join.
	SetExchangeSourceCrawl(ctx context.Context, id, crawlID int64) error
	// ExchangeSourcePulled records a pull that applied: the cursor moves forward only.
	ExchangeSourcePulled(ctx context.Context, id int64, p record.Pulled) error
	// ExchangeSourceFailed records why a pull failed; the cursor stays.
	ExchangeSourceFailed(ctx context.Context, id int64, errText string) error
}

// SummaryStore reads the summaries a stream sends, from the workspace's summary log.
type SummaryStore interface {
	// Path is the workspace file (it names the workspace in a stream's GATHERER).
	Path() string
	// LastSummarySeq is the summary log's newest seq (0 when empty).
	LastSummarySeq(ctx context.Context) (int64, error)
	// CountExchangeSummaries counts the log's entries after seq after, up to upTo.
	CountExchangeSummaries(ctx context.Context, after, upTo int64) (int64, error)
	// ExchangeSummaries reads up to sel.Limit summaries after sel.After, in log order.
	ExchangeSummaries(ctx context.Context, sel record.Selection) ([]record.Summary, error)
}

// PageStore saves the pages a pull's or a file's summaries become, as one run of the
// source's import crawl.
type PageStore interface {
	// CreateCrawl records a new crawl (the source's import crawl, on its first pull).
	CreateCrawl(ctx context.Context, key string, seeds []string, scope string, config json.RawMessage) (store.Crawl, error)
	// StartRun starts a run of crawl id.
	StartRun(ctx context.Context, id int64, config json.RawMessage, fresh bool) error
	// ImportSummary saves a summary as a page of its crawl, marked as sourceID's, unless
	// the page holds the same content or a newer copy (store.ImportOutcome says which).
	ImportSummary(ctx context.Context, r *store.Result, t store.Target, sourceID int64) (store.ImportOutcome, error)
	crawl.RunEnder // the run's end (crawl.Finish)
}

// ImportStore is what a pull or a file's import needs: the source and its pages.
type ImportStore interface {
	SourceStore
	PageStore
}

// Store is all exchange keeps: what serve's handler and a pull need.
type Store interface {
	TokenStore
	SummaryStore
	ImportStore
}

var _ Store = (*store.Store)(nil)
