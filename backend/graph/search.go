package graph

import (
	"context"
)

// side is one end of a bidirectional breadth-first search: the pages reached, at what
// distance, by how many shortest paths, and one predecessor each (towards the end).
type side struct {
	d      direction // the links it follows: out from the sources, in towards the targets
	dist   map[int64]int32
	count  map[int64]uint64
	parent map[int64]int64
	layer  []int64 // the pages at distance radius
	radius int32
}

func newSide(d direction, starts []int64) *side {
	s := &side{d: d, dist: map[int64]int32{}, count: map[int64]uint64{}, parent: map[int64]int64{}}
	for _, id := range starts {
		if _, dup := s.dist[id]; dup {
			continue
		}
		s.dist[id], s.count[id] = 0, 1
		s.layer = append(s.layer, id)
	}
	return s
}

// expand reads the links of the current layer and makes the next one.
func (s *side) expand(ctx context.Context, adj *adjacency) error {
	if err := adj.load(ctx, s.layer, s.d); err != nil {
		return err
	}
	var next []int64
	r := s.radius + 1
	for _, u := range s.layer {
		cu := s.count[u]
		for _, w := range adj.next(u, s.d) {
			dw, seen := s.dist[w]
			switch {
			case !seen:
				s.dist[w], s.count[w], s.parent[w] = r, cu, u
				next = append(next, w)
			case dw == r:
				s.count[w] = satAdd(s.count[w], cu)
			}
		}
	}
	s.layer, s.radius = next, r
	return nil
}

// meeting is where the two searches met: the length of the shortest path, the pages of
// the just-expanded layer that lie on shortest paths, and how many shortest paths there are.
type meeting struct {
	length int32
	via    []int64
	count  uint64
}

// meet looks for pages of a's new layer already reached by b.
func meet(a, b *side) (meeting, bool) {
	m := meeting{length: -1}
	for _, w := range a.layer {
		if db, ok := b.dist[w]; ok {
			if l := a.radius + db; m.length < 0 || l < m.length {
				m.length = l
			}
		}
	}
	if m.length < 0 {
		return m, false
	}
	// Every shortest path crosses a's layer exactly once.
	for _, w := range a.layer {
		if db, ok := b.dist[w]; ok && a.radius+db == m.length {
			m.via = append(m.via, w)
			m.count = satAdd(m.count, satMul(a.count[w], b.count[w]))
		}
	}
	return m, true
}

// bidirectional searches from the sources along d and from the targets against it, one
// level at a time on the side with the smaller layer, until they meet, one side runs out,
// or maxLength levels are done (0: no bound).
func bidirectional(ctx context.Context, adj *adjacency, sources, targets []int64, d direction, maxLength int32) (fw, bw *side, m meeting, found bool, err error) {
	back := in
	switch d {
	case in:
		back = out
	case out | in:
		back = out | in
	}
	fw, bw = newSide(d, sources), newSide(back, targets)
	// A page that is both a source and a target: length 0.
	for _, id := range fw.layer {
		if _, ok := bw.dist[id]; ok {
			return fw, bw, meeting{length: 0, via: []int64{id}, count: 1}, true, nil
		}
	}
	for len(fw.layer) > 0 && len(bw.layer) > 0 {
		if maxLength > 0 && fw.radius+bw.radius >= maxLength {
			break
		}
		grow, other := fw, bw
		if len(bw.layer) < len(fw.layer) {
			grow, other = bw, fw
		}
		if err := grow.expand(ctx, adj); err != nil {
			return fw, bw, m, false, err
		}
		if m, ok := meet(grow, other); ok {
			return fw, bw, m, true, nil
		}
	}
	return fw, bw, meeting{length: -1}, false, nil
}

// chain follows predecessors from id back to the side's start (id first).
func (s *side) chain(id int64) []int64 {
	out := []int64{id}
	for {
		p, ok := s.parent[id]
		if !ok {
			return out
		}
		out = append(out, p)
		id = p
	}
}
