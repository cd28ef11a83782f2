package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"mundaneum/backend/check/record"
)

// Link checking (backend/check, records in check/record): a run's reports and their documents.

// keepReportDocs is how many of a task's latest reports keep their documents; older ones
// keep their summary and news (a few kilobytes) and lose the per-document listing, which
// for a large site is megabytes a run.
const keepReportDocs = 10

// SaveReport stores a report and its documents in one transaction, links it to the task's
// previous report, and drops the documents of reports older than the latest keepReportDocs.
func (s *Store) SaveReport(ctx context.Context, r record.Report, docs []record.Doc) (int64, error) {
	if err := s.writable("save report"); err != nil {
		return 0, err
	}
	id, err := Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		var prior sql.NullInt64
		if err := tx.QueryRowContext(ctx, `SELECT max(id) FROM check_reports WHERE task_id = ?`, r.TaskID).Scan(&prior); err != nil {
			return 0, err
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO check_reports(run_id, task_id, prior_id, created_at, summary, news)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, r.RunID, r.TaskID, prior, nowMs(), string(r.Summary), string(r.News)).Scan(&id); err != nil {
			return 0, err
		}
		st, err := tx.Stmt(ctx, `INSERT INTO check_report_docs(report_id, seq, url_id, depth, refs) VALUES (?, ?, ?, ?, ?)`)
		if err != nil {
			return 0, err
		}
		for _, d := range docs {
			if d.Refs == nil {
				d.Refs = []byte{}
			}
			if _, err := st.ExecContext(ctx, id, d.Seq, d.URLID, d.Depth, d.Refs); err != nil {
				return 0, err
			}
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM check_report_docs WHERE report_id IN (
			SELECT id FROM check_reports WHERE task_id = ? ORDER BY id DESC LIMIT -1 OFFSET ?)`, r.TaskID, keepReportDocs)
		return id, err
	})
	if err != nil {
		return 0, fmt.Errorf("save report of task %d: %w", r.TaskID, err)
	}
	return id, s.writer.Flush(ctx)
}

const reportColumns = `r.id, r.run_id, r.task_id, t.name, coalesce(r.prior_id, 0), r.created_at, r.summary, r.news,
	(SELECT count(*) FROM check_report_docs d WHERE d.report_id = r.id)`

func scanReport(row interface{ Scan(...any) error }) (record.Report, error) {
	var r record.Report
	var sum, news string
	err := row.Scan(&r.ID, &r.RunID, &r.TaskID, &r.Task, &r.PriorID, &r.CreatedAt, &sum, &news, &r.Docs)
	r.Summary, r.News = json.RawMessage(sum), json.RawMessage(news)
	return r, err
}

// Report returns a report by id, or ErrNotFound.
func (s *Store) Report(ctx context.Context, id int64) (record.Report, error) {
	r, err := scanReport(s.read.QueryRowContext(ctx, `SELECT `+reportColumns+`
		FROM check_reports r JOIN check_tasks t ON t.id = r.task_id WHERE r.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("report %d: %w", id, ErrNotFound)
	}
	return r, err
}

// Reports lists reports, newest first: a task's (taskID > 0) or every task's.
func (s *Store) Reports(ctx context.Context, taskID int64, limit int) ([]record.Report, error) {
	out, err := collect(ctx, s.read, scanReport, `SELECT `+reportColumns+`
		FROM check_reports r JOIN check_tasks t ON t.id = r.task_id
		WHERE ? = 0 OR r.task_id = ? ORDER BY r.id DESC LIMIT ?`, taskID, taskID, limit)
	if err != nil {
		return nil, fmt.Errorf("list reports: %w", err)
	}
	return out, nil
}

// ReportDocs returns a page of a report's documents in traversal order; fn-style paging
// keeps a large report's listing out of memory.
func (s *Store) ReportDocs(ctx context.Context, reportID int64, offset, limit int, fn func(record.Doc) error) error {
	rows, err := s.read.QueryContext(ctx, `SELECT d.seq, d.url_id, u.url, d.depth, d.refs
		FROM check_report_docs d JOIN check_urls u ON u.id = d.url_id
		WHERE d.report_id = ? ORDER BY d.seq LIMIT ? OFFSET ?`, reportID, limit, offset)
	if err != nil {
		return fmt.Errorf("read report %d: %w", reportID, err)
	}
	defer rows.Close()
	for rows.Next() {
		var d record.Doc
		if err := rows.Scan(&d.Seq, &d.URLID, &d.URL, &d.Depth, &d.Refs); err != nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ReportDocSeqs maps the URL id of every document of a report to its place in the
// report's order: a page of documents cross-references the others with it.
func (s *Store) ReportDocSeqs(ctx context.Context, reportID int64) (map[int64]int, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT url_id, seq FROM check_report_docs WHERE report_id = ?`, reportID)
	if err != nil {
		return nil, fmt.Errorf("read report %d: %w", reportID, err)
	}
	defer rows.Close()
	out := map[int64]int{}
	for rows.Next() {
		var id int64
		var seq int
		if err := rows.Scan(&id, &seq); err != nil {
			return nil, err
		}
		out[id] = seq
	}
	return out, rows.Err()
}
