package graph

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"mundaneum/backend/store"
)

// insertGraph writes pages 1..n and the given links (kind a) straight into a workspace.
func insertGraph(t testing.TB, st *store.Store, n int, links [][2]int) {
	t.Helper()
	err := st.Writer().Do(context.Background(), func(tx *store.Tx) error {
		if _, err := tx.Exec(`INSERT INTO hosts(id, origin) VALUES (1, 'http://g.test')`); err != nil {
			return err
		}
		for i := 1; i <= n; i++ {
			if _, err := tx.Exec(`INSERT INTO pages(id, url, host_id, state, discovered_at) VALUES (?, ?, 1, 'fetched', 0)`,
				i, fmt.Sprintf("http://g.test/%d", i)); err != nil {
				return err
			}
		}
		for k, l := range links {
			if _, err := tx.Exec(`INSERT OR IGNORE INTO links(from_id, to_id, kind, anchor, pos) VALUES (?, ?, 'a', '', ?)`,
				l[0], l[1], k+1); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = st.Writer().Flush(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
}

// bruteForce enumerates the simple paths from a to b: the shortest length, how many
// shortest paths and how many of at most one link more.
func bruteForce(adj map[int][]int, a, b int) (length int, shortest, longer uint64) {
	length = -1
	counts := map[int]uint64{}
	onPath := map[int]bool{a: true}
	var walk func(u, depth int)
	walk = func(u, depth int) {
		if u == b {
			counts[depth]++
			return
		}
		if depth >= 8 {
			return
		}
		for _, w := range adj[u] {
			if !onPath[w] {
				onPath[w] = true
				walk(w, depth+1)
				onPath[w] = false
			}
		}
	}
	if a == b {
		return 0, 1, 1
	}
	walk(a, 0)
	for l := 1; l <= 8; l++ {
		if counts[l] > 0 {
			return l, counts[l], counts[l] + counts[l+1]
		}
	}
	return -1, 0, 0
}

// The bidirectional search and the counts in the middle agree with enumerating every path.
func TestPathsAgreeWithBruteForce(t *testing.T) {
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 7))
		n := 8 + r.IntN(10)
		adj := map[int][]int{}
		seen := map[[2]int]bool{}
		var links [][2]int
		for range n * (1 + r.IntN(3)) {
			a, b := 1+r.IntN(n), 1+r.IntN(n)
			if a == b || seen[[2]int{a, b}] {
				continue
			}
			seen[[2]int{a, b}] = true
			links = append(links, [2]int{a, b})
			adj[a] = append(adj[a], b)
		}
		st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), fmt.Sprint(seed)), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		insertGraph(t, st, n, links)
		g := New(st.ReadDB())
		for a := 1; a <= n; a++ {
			for b := 1; b <= n; b++ {
				length, shortest, longer := bruteForce(adj, a, b)
				if length > 7 {
					continue // beyond what the brute force counts one longer
				}
				res, err := g.Path(context.Background(), int64(a), int64(b), PathOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if res.Length != length || res.Shortest != shortest || res.Paths != longer {
					t.Fatalf("graph %d, %d -> %d: length %d, %d shortest, %d paths; brute force %d, %d, %d (links %v)",
						seed, a, b, res.Length, res.Shortest, res.Paths, length, shortest, longer, links)
				}
			}
		}
		st.Close()
	}
}
