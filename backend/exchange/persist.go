package exchange

import (
	"context"

	"mundaneum/backend/exchange/record"
	"mundaneum/backend/store"
)

// What exchange keeps, and the store it keeps it in: the interfaces below are written in
// exchange/record's types, and *store.Store implements them (as it does the library's and
// check's). Every write is durable when the method returns, except a token's use count,
// which joins the writer's next batch. A pull's or a file's summaries are pages saved by
// an import crawl's run, which takes the *store.Store itself (see run).

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

// Store is all exchange keeps: what serve's handler and a pull need.
type Store interface {
	TokenStore
	SourceStore
	SummaryStore
}

var _ Store = (*store.Store)(nil)
