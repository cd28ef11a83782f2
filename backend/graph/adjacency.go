package graph

import (
	"context"
	"fmt"
	"slices"
)

// direction of a link read from the table.
type direction uint8

const (
	out direction = 1 << iota // links from a page
	in                        // links to a page
)

// adjacency caches the document links of the pages read so far, each distinct pair once
// and without self-links, in both directions as asked.
type adjacency struct {
	g    *Graph
	outs map[int64][]int64
	ins  map[int64][]int64
	rows int // links read from the table
}

func newAdjacency(g *Graph) *adjacency {
	return &adjacency{g: g, outs: map[int64][]int64{}, ins: map[int64][]int64{}}
}

// load reads the links of the given pages in direction d that are not cached yet.
func (a *adjacency) load(ctx context.Context, ids []int64, d direction) error {
	if d&out != 0 {
		if err := a.read(ctx, ids, a.outs, `SELECT from_id, to_id FROM links
			WHERE from_id IN (SELECT value FROM json_each(?)) AND kind IN `+docKinds+` AND to_id <> from_id`); err != nil {
			return err
		}
	}
	if d&in != 0 {
		if err := a.read(ctx, ids, a.ins, `SELECT to_id, from_id FROM links
			WHERE to_id IN (SELECT value FROM json_each(?)) AND kind IN `+docKinds+` AND to_id <> from_id`); err != nil {
			return err
		}
	}
	return nil
}

func (a *adjacency) read(ctx context.Context, ids []int64, m map[int64][]int64, query string) error {
	var need []int64
	for _, id := range ids {
		if _, ok := m[id]; !ok {
			need = append(need, id)
			m[id] = nil // known, possibly without links
		}
	}
	for start := 0; start < len(need); start += chunk {
		part := need[start:min(start+chunk, len(need))]
		rows, err := a.g.db.QueryContext(ctx, query, idList(part))
		if err != nil {
			return fmt.Errorf("links: %w", err)
		}
		// Rows come grouped by the first column, then ordered by the second (the primary
		// key and links_to both end with kind): a pair of several kinds is consecutive.
		var lastK, lastV int64 = -1, -1
		for rows.Next() {
			var k, v int64
			if err := rows.Scan(&k, &v); err != nil {
				rows.Close()
				return err
			}
			a.rows++
			if k == lastK && v == lastV {
				continue
			}
			lastK, lastV = k, v
			m[k] = append(m[k], v)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// next returns the neighbours of id in direction d (loaded before).
func (a *adjacency) next(id int64, d direction) []int64 {
	switch d {
	case out:
		return a.outs[id]
	case in:
		return a.ins[id]
	}
	o, i := a.outs[id], a.ins[id]
	both := make([]int64, 0, len(o)+len(i))
	both = append(append(both, o...), i...)
	slices.Sort(both)
	return slices.Compact(both)
}

// capCount bounds path counts: counts saturate here and are reported as "at least".
const capCount = uint64(1) << 62

func satAdd(a, b uint64) uint64 {
	if a >= capCount-b || b >= capCount {
		return capCount
	}
	return a + b
}

func satMul(a, b uint64) uint64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= capCount/b {
		return capCount
	}
	return a * b
}
