package check

import (
	"context"
	"encoding/json"
	"fmt"

	"mundaneum/backend/check/record"
	"mundaneum/backend/check/report"
)

// ReportStore reads reports; *store.Store satisfies it.
type ReportStore interface {
	Report(ctx context.Context, id int64) (record.Report, error)
	Reports(ctx context.Context, taskID int64, limit int) ([]record.Report, error)
	ReportDocs(ctx context.Context, reportID int64, offset, limit int, fn func(record.Doc) error) error
	ReportDocSeqs(ctx context.Context, reportID int64) (map[int64]int, error)
	RunChecks(ctx context.Context, runID int64, fn func(record.Row) error) error
	URLsByID(ctx context.Context, ids []int64) (map[int64]string, error)
}

// LoadReport reads a whole report: its header, news, documents and every link they
// reference with its check in the report's run.
func LoadReport(ctx context.Context, st ReportStore, id int64) (*report.Model, error) {
	return loadReport(ctx, st, id, 0, -1)
}

// LoadReportPage reads a report with a page of its documents (offset, limit) and the
// links those reference: for the window, which shows a large report a page at a time.
// Link.Doc is then the place in the whole report of a link that is a document of it.
func LoadReportPage(ctx context.Context, st ReportStore, id int64, offset, limit int) (*report.Model, error) {
	return loadReport(ctx, st, id, offset, limit)
}

func loadReport(ctx context.Context, st ReportStore, id int64, offset, limit int) (*report.Model, error) {
	rec, err := st.Report(ctx, id)
	if err != nil {
		return nil, err
	}
	m := &report.Model{}
	if err := json.Unmarshal(rec.Summary, m); err != nil {
		return nil, fmt.Errorf("report %d: summary: %w", id, err)
	}
	if err := json.Unmarshal(rec.News, &m.News); err != nil {
		return nil, fmt.Errorf("report %d: news: %w", id, err)
	}
	m.ID, m.PriorID = rec.ID, rec.PriorID
	// Documents, with their references as URL ids.
	type rawDoc struct {
		id    int64
		depth int
		refs  []packedRef
	}
	var docs []rawDoc
	if limit != 0 {
		err = st.ReportDocs(ctx, id, offset, limitOrAll(limit), func(d record.Doc) error {
			refs, err := unpackRefs(d.Refs)
			if err != nil {
				return fmt.Errorf("report %d, document %d: %w", id, d.Seq, err)
			}
			docs = append(docs, rawDoc{id: d.URLID, depth: d.Depth, refs: refs})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	// One Link per URL id, in first-seen order.
	index := map[int64]int{}
	linkOf := func(uid int64) int {
		if i, ok := index[uid]; ok {
			return i
		}
		index[uid] = len(m.Links)
		m.Links = append(m.Links, report.Link{Doc: -1})
		return len(m.Links) - 1
	}
	m.Docs = make([]report.Doc, len(docs))
	for i, d := range docs {
		li := linkOf(d.id)
		m.Links[li].Doc = offset + i
		rd := report.Doc{Link: li, Depth: d.depth, Refs: make([]report.Ref, len(d.refs))}
		for j, r := range d.refs {
			rd.Refs[j] = report.Ref{Link: linkOf(r.ID), Kind: KindName(r.Kind)}
		}
		m.Docs[i] = rd
	}
	if len(index) == 0 {
		return m, nil
	}
	if limit >= 0 {
		seqs, err := st.ReportDocSeqs(ctx, id)
		if err != nil {
			return nil, err
		}
		for uid, i := range index {
			if seq, ok := seqs[uid]; ok {
				m.Links[i].Doc = seq
			}
		}
	}
	ids := make([]int64, 0, len(index))
	for uid := range index {
		ids = append(ids, uid)
	}
	urls, err := st.URLsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	byURL := make(map[string]int, len(index))
	for uid, i := range index {
		m.Links[i].URL = urls[uid]
		byURL[urls[uid]] = i
	}
	// What the run found for each, and whether it is dead (its health at the check).
	err = st.RunChecks(ctx, rec.RunID, func(c record.Row) error {
		i, ok := index[c.URLID]
		if !ok {
			return nil
		}
		l := &m.Links[i]
		l.Tested, l.Verdict, l.Status, l.Reason, l.FinalURL, l.Permanent = true, c.Verdict, c.Status, c.Reason, c.FinalURL, c.Permanent
		l.Title, l.LastModified, l.Expires, l.Owner, l.ContentType = c.Title, c.LastModified, c.Expires, c.Owner, c.ContentType
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, it := range m.News.Broken {
		if i, ok := byURL[it.URL]; ok {
			m.Links[i].Dead, m.Links[i].Failures = it.Dead, it.Failures
		}
	}
	return m, nil
}

func limitOrAll(limit int) int {
	if limit < 0 {
		return -1
	}
	return limit
}
