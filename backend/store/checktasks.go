package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"mundaneum/backend/check/record"
)

// Link checking (backend/check, records in check/record): tasks and their rules.

const taskColumns = `id, name, type, top, options, created_at, coalesce(last_run_at, 0)`

func scanTask(row interface{ Scan(...any) error }) (record.Task, error) {
	var t record.Task
	var opts string
	err := row.Scan(&t.ID, &t.Name, &t.Type, &t.Top, &opts, &t.CreatedAt, &t.LastRunAt)
	t.Options = json.RawMessage(opts)
	return t, err
}

func (s *Store) writable(what string) error {
	if s.writer == nil {
		return fmt.Errorf("%s: %w", what, errReadOnly)
	}
	return nil
}

// CreateTask adds a task; a task of the same name gives ErrExists.
func (s *Store) CreateTask(ctx context.Context, t record.Task) (record.Task, error) {
	if err := s.writable("create task"); err != nil {
		return record.Task{}, err
	}
	out, err := Get(ctx, s.writer, func(tx *Tx) (record.Task, error) {
		return scanTask(tx.QueryRowContext(ctx, `INSERT INTO check_tasks(name, type, top, options, created_at)
			VALUES (?, ?, ?, ?, ?) RETURNING `+taskColumns, t.Name, t.Type, t.Top, string(t.Options), nowMs()))
	})
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return record.Task{}, fmt.Errorf("task %q: %w", t.Name, ErrExists)
		}
		return record.Task{}, fmt.Errorf("create task %q: %w", t.Name, err)
	}
	return out, s.writer.Flush(ctx)
}

// UpdateTask changes the task with t.ID (its name, type, top and options).
func (s *Store) UpdateTask(ctx context.Context, t record.Task) (record.Task, error) {
	if err := s.writable("update task"); err != nil {
		return record.Task{}, err
	}
	out, err := Get(ctx, s.writer, func(tx *Tx) (record.Task, error) {
		return scanTask(tx.QueryRowContext(ctx, `UPDATE check_tasks SET name = ?, type = ?, top = ?, options = ?
			WHERE id = ? RETURNING `+taskColumns, t.Name, t.Type, t.Top, string(t.Options), t.ID))
	})
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return record.Task{}, fmt.Errorf("task %d: %w", t.ID, ErrNotFound)
	case err != nil && strings.Contains(err.Error(), "UNIQUE"):
		return record.Task{}, fmt.Errorf("task %q: %w", t.Name, ErrExists)
	case err != nil:
		return record.Task{}, fmt.Errorf("update task %q: %w", t.Name, err)
	}
	return out, s.writer.Flush(ctx)
}

// DeleteTask removes a task with its rules and reports (the checks of its URLs stay: they
// are the URLs' history).
func (s *Store) DeleteTask(ctx context.Context, name string) error {
	if err := s.writable("delete task"); err != nil {
		return err
	}
	n, err := Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, `DELETE FROM check_tasks WHERE name = ?`, name)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
	if err != nil {
		return fmt.Errorf("delete task %q: %w", name, err)
	}
	if n == 0 {
		return fmt.Errorf("task %q: %w", name, noTask)
	}
	return s.writer.Flush(ctx)
}

// Tasks lists the tasks by name.
func (s *Store) Tasks(ctx context.Context) ([]record.Task, error) {
	out, err := collect(ctx, s.read, scanTask, `SELECT `+taskColumns+` FROM check_tasks ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	return out, nil
}

// noTask is check's ErrNoTask that is also the store's ErrNotFound, so that callers may
// test either.
var noTask error = notFoundAs{record.ErrNoTask}

type notFoundAs struct{ domain error }

func (e notFoundAs) Error() string   { return e.domain.Error() }
func (e notFoundAs) Unwrap() []error { return []error{e.domain, ErrNotFound} }

// TaskNamed returns the task called name, or an error that is both record.ErrNoTask and
// ErrNotFound.
func (s *Store) TaskNamed(ctx context.Context, name string) (record.Task, error) {
	t, err := scanTask(s.read.QueryRowContext(ctx, `SELECT `+taskColumns+` FROM check_tasks WHERE name = ?`, name))
	if errors.Is(err, sql.ErrNoRows) {
		return record.Task{}, fmt.Errorf("task %q: %w", name, noTask)
	}
	return t, err
}

// MarkTaskRun records that a run of the task started at (unix ms).
func (s *Store) MarkTaskRun(ctx context.Context, id, at int64) error {
	if err := s.writable("mark task run"); err != nil {
		return err
	}
	err := s.writer.Do(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE check_tasks SET last_run_at = ? WHERE id = ?`, at, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("mark task %d run: %w", id, err)
	}
	return s.writer.Flush(ctx)
}

const ruleColumns = `id, coalesce(task_id, 0), action, prefix, coalesce(expires_at, 0), created_at, note`

// AddRules adds avoid and leaf rules; a rule for a prefix that the same task (or the
// system-wide list) already has replaces it. It returns how many rules were new.
func (s *Store) AddRules(ctx context.Context, rules []record.Rule) (int, error) {
	if err := s.writable("add rules"); err != nil {
		return 0, err
	}
	now := nowMs()
	n, err := Get(ctx, s.writer, func(tx *Tx) (int, error) {
		ins, err := tx.Stmt(ctx, `INSERT INTO check_rules(task_id, action, prefix, expires_at, created_at, note)
			VALUES (nullif(?, 0), ?, ?, nullif(?, 0), ?, ?)
			ON CONFLICT(coalesce(task_id, 0), prefix) DO UPDATE SET action = excluded.action,
			expires_at = excluded.expires_at, note = excluded.note`)
		if err != nil {
			return 0, err
		}
		has, err := tx.Stmt(ctx, `SELECT count(*) FROM check_rules WHERE coalesce(task_id, 0) = ? AND prefix = ?`)
		if err != nil {
			return 0, err
		}
		added := 0
		for _, r := range rules {
			var n int
			if err := has.QueryRowContext(ctx, r.TaskID, r.Prefix).Scan(&n); err != nil {
				return 0, err
			}
			if _, err := ins.ExecContext(ctx, r.TaskID, r.Action, r.Prefix, r.ExpiresAt, now, r.Note); err != nil {
				return 0, fmt.Errorf("rule %s %s: %w", r.Action, r.Prefix, err)
			}
			if n == 0 {
				added++
			}
		}
		return added, nil
	})
	if err != nil {
		return 0, fmt.Errorf("add rules: %w", err)
	}
	return n, s.writer.Flush(ctx)
}

// DeleteRule removes a rule by id.
func (s *Store) DeleteRule(ctx context.Context, id int64) error {
	if err := s.writable("delete rule"); err != nil {
		return err
	}
	n, err := Get(ctx, s.writer, func(tx *Tx) (int64, error) {
		res, err := tx.ExecContext(ctx, `DELETE FROM check_rules WHERE id = ?`, id)
		if err != nil {
			return 0, err
		}
		return res.RowsAffected()
	})
	if err != nil {
		return fmt.Errorf("delete rule %d: %w", id, err)
	}
	if n == 0 {
		return fmt.Errorf("rule %d: %w", id, ErrNotFound)
	}
	return s.writer.Flush(ctx)
}

// CheckRules lists rules: the system-wide ones (taskID 0) or one task's, expired ones included,
// by prefix.
func (s *Store) CheckRules(ctx context.Context, taskID int64) ([]record.Rule, error) {
	out, err := collect(ctx, s.read, func(row interface{ Scan(...any) error }) (record.Rule, error) {
		var r record.Rule
		err := row.Scan(&r.ID, &r.TaskID, &r.Action, &r.Prefix, &r.ExpiresAt, &r.CreatedAt, &r.Note)
		return r, err
	}, `SELECT `+ruleColumns+` FROM check_rules WHERE coalesce(task_id, 0) = ? ORDER BY prefix`, taskID)
	if err != nil {
		return nil, fmt.Errorf("list rules: %w", err)
	}
	return out, nil
}
