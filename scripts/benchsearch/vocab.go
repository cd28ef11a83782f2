package main

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mundaneum/backend/index"
)

// Columns of page_fts, in order.
var ftsCols = []string{"title", "headings", "body", "anchors", "url"}

// vocab is the index's own vocabulary: documents per term and column, read with fts5vocab.
type vocab struct {
	terms []string
	df    map[string][5]int // documents containing the term, per column
}

// extractVocab reads the column vocabulary of the workspace's index into file (term, column,
// documents per line). It opens its own connection to the index file: fts5vocab tables
// are created in temp, which the search pool (query-only) refuses.
func extractVocab(ctx context.Context, workspace, file string) error {
	db, err := sql.Open("sqlite", "file:"+filepath.ToSlash(index.Path(workspace))+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, page_fts, col)`); err != nil {
		return fmt.Errorf("fts5vocab: %w", err)
	}
	rows, err := db.QueryContext(ctx, `SELECT term, col, doc FROM temp.vocab`)
	if err != nil {
		return fmt.Errorf("fts5vocab: %w", err)
	}
	defer rows.Close()
	tmp := file + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	for rows.Next() {
		var term, col string
		var doc int
		if err := rows.Scan(&term, &col, &doc); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%s\t%d\n", term, col, doc)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

func loadVocab(file string) (*vocab, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	v := &vocab{df: map[string][5]int{}}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s: bad line %q", file, sc.Text())
		}
		col := -1
		for i, c := range ftsCols {
			if c == parts[1] {
				col = i
			}
		}
		n, err := strconv.Atoi(parts[2])
		if col < 0 || err != nil {
			return nil, fmt.Errorf("%s: bad line %q", file, sc.Text())
		}
		d, ok := v.df[parts[0]]
		if !ok {
			v.terms = append(v.terms, parts[0])
		}
		d[col] = n
		v.df[parts[0]] = d
	}
	return v, sc.Err()
}
