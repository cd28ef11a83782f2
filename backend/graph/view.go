package graph

import (
	"context"
	"fmt"
)

// ViewNode is a page of the picture of a crawl.
type ViewNode struct {
	ID       int64  `json:"id"`
	URL      string `json:"url"`
	Title    string `json:"title,omitempty"`
	Host     string `json:"host"`
	State    string `json:"state"`
	Status   int    `json:"status,omitempty"`
	Family   string `json:"family"`
	Value    string `json:"value"`
	Followed bool   `json:"followed"`
	Parent   int    `json:"parent"` // index of the tree parent in Nodes, -1 for a seed
}

// View is the picture of a crawl: its visited elements as a tree (by family index) and the
// links between them.
type View struct {
	CrawlID   int64      `json:"crawlId"`
	Nodes     []ViewNode `json:"nodes"`
	Edges     [][2]int   `json:"edges"` // links between nodes, as indexes into Nodes
	Truncated bool       `json:"truncated"`
	MoreEdges bool       `json:"moreEdges"` // links left out beyond maxEdges
}

// MaxViewNodes bounds the pages of a picture.
const MaxViewNodes = 20_000

// maxEdgesPerNode bounds the links drawn per page: beyond it a picture shows more ink than structure.
const maxEdgesPerNode = 8

// CrawlView returns up to limit visited elements of a crawl (in family order, so a
// truncated picture is the top of the tree) and the links among them.
func (g *Graph) CrawlView(ctx context.Context, crawlID int64, limit int) (View, error) {
	if limit <= 0 || limit > MaxViewNodes {
		limit = MaxViewNodes
	}
	t, err := g.CrawlTree(ctx, crawlID, limit, false)
	if err != nil {
		return View{}, err
	}
	v := View{CrawlID: crawlID, Nodes: make([]ViewNode, 0, len(t.Elements)), Edges: [][2]int{}, Truncated: t.Truncated}
	index := make(map[int64]int, len(t.Elements))
	ids := make([]int64, 0, len(t.Elements))
	for i, e := range t.Elements {
		index[e.Page.ID] = i
		ids = append(ids, e.Page.ID)
	}
	for _, e := range t.Elements {
		parent := -1
		if i, ok := index[e.Parent]; ok && e.Parent != 0 {
			parent = i
		}
		v.Nodes = append(v.Nodes, ViewNode{ID: e.Page.ID, URL: e.Page.URL, Title: e.Page.Title, Host: e.Page.Host,
			State: e.Page.State, Status: e.Page.Status, Family: e.Family, Value: e.Value, Followed: e.Followed, Parent: parent})
	}
	maxEdges := maxEdgesPerNode * len(ids)
	for start := 0; start < len(ids); start += chunk {
		rows, err := g.db.QueryContext(ctx, `SELECT from_id, to_id FROM links WHERE from_id IN (SELECT value FROM json_each(?))
			AND kind IN `+docKinds+` AND to_id <> from_id`, idList(ids[start:min(start+chunk, len(ids))]))
		if err != nil {
			return v, fmt.Errorf("view links: %w", err)
		}
		var lastF, lastT int64 = -1, -1
		for rows.Next() {
			var f, to int64
			if err := rows.Scan(&f, &to); err != nil {
				rows.Close()
				return v, err
			}
			if f == lastF && to == lastT {
				continue
			}
			lastF, lastT = f, to
			j, ok := index[to]
			if !ok {
				continue
			}
			if len(v.Edges) >= maxEdges {
				v.MoreEdges = true
				continue
			}
			v.Edges = append(v.Edges, [2]int{index[f], j})
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return v, err
		}
	}
	return v, nil
}
