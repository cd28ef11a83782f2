package app

import (
	"context"
	"errors"

	"mundaneum/backend/store"
)

// RetentionInfo is a retention setting with the disk its history takes: the workspace's
// (CrawlID 0) or a crawl's.
type RetentionInfo struct {
	CrawlID int64  `json:"crawlId"`
	Keep    string `json:"keep"` // all, last or none: the setting in force
	Last    int    `json:"last"`
	// Own says the crawl has its own setting (else it follows the workspace's).
	Own      bool  `json:"own"`
	Versions int   `json:"versions"`
	Bodies   int   `json:"bodies"` // workspace: bodies only earlier versions name; crawl: its pages' versions' bodies
	Bytes    int64 `json:"bytes"`
	// Pruned is what the last change removed.
	PrunedVersions int   `json:"prunedVersions"`
	PrunedBytes    int64 `json:"prunedBytes"`
}

// Retention returns the workspace's retention setting (crawlID 0) or a crawl's, with the disk
// its history takes.
func (a *App) Retention(crawlID int64) (RetentionInfo, error) {
	return a.retention(context.Background(), crawlID, store.Prune{})
}

// SetRetention sets the workspace's retention (crawlID 0) or a crawl's own ("default": the
// workspace's again) and applies it at once; keep is all, last (with last) or none.
func (a *App) SetRetention(crawlID int64, keep string, last int) (RetentionInfo, error) {
	ctx := context.Background()
	st := a.ws().st
	var r *store.Retention
	if keep != "default" {
		r = &store.Retention{Keep: keep, Last: last}
		if err := r.Valid(); err != nil {
			return RetentionInfo{}, &Error{Code: CodeInvalid, Message: err.Error()}
		}
	} else if crawlID == 0 {
		return RetentionInfo{}, &Error{Code: CodeInvalid, Message: "the workspace's retention is all, last or none"}
	}
	var p store.Prune
	var err error
	if crawlID == 0 {
		p, err = st.SetRetention(ctx, *r)
	} else {
		p, err = st.SetCrawlRetention(ctx, crawlID, r)
	}
	if err != nil {
		return RetentionInfo{}, apiError(err)
	}
	return a.retention(ctx, crawlID, p)
}

func (a *App) retention(ctx context.Context, crawlID int64, p store.Prune) (RetentionInfo, error) {
	st := a.ws().st
	ws, err := st.Retention(ctx)
	if err != nil {
		return RetentionInfo{}, apiError(err)
	}
	info := RetentionInfo{CrawlID: crawlID, Keep: ws.Keep, Last: ws.Last, PrunedVersions: p.Versions, PrunedBytes: p.Bytes}
	if crawlID == 0 {
		u, err := st.HistoryUsage(ctx)
		if err != nil {
			return info, apiError(err)
		}
		info.Versions, info.Bodies, info.Bytes = u.Versions, u.Bodies, u.Bytes+u.UnnamedBytes
		return info, nil
	}
	h, err := st.CrawlHistoryUsage(ctx, crawlID)
	if errors.Is(err, store.ErrNotFound) {
		return info, &Error{Code: CodeNotFound, Message: err.Error()}
	}
	if err != nil {
		return info, apiError(err)
	}
	if h.Retention != nil {
		info.Own, info.Keep, info.Last = true, h.Retention.Keep, h.Retention.Last
	}
	info.Versions, info.Bodies, info.Bytes = h.Versions, h.Bodies, h.Bytes
	return info, nil
}

// crawlRetention checks a crawl form's retention (see CrawlRequest.Keep) before any crawl is
// opened, and returns the step that gives the crawl that setting (nil: none to give).
func crawlRetention(st *store.Store, keep string, last int) (func(ctx context.Context, id int64) error, error) {
	var r *store.Retention
	switch keep {
	case "":
		return nil, nil
	case "default":
	default:
		r = &store.Retention{Keep: keep}
		if keep == store.KeepLast {
			r.Last = last
		}
		if err := r.Valid(); err != nil {
			return nil, &Error{Code: CodeInvalid, Message: "versions kept: " + err.Error()}
		}
	}
	return func(ctx context.Context, id int64) error {
		_, err := st.SetCrawlRetention(ctx, id, r)
		return err
	}, nil
}
