package check

import (
	"net/url"
	"path"
	"strings"
)

// Roles a target plays in one task.
const (
	roleNone       uint8 = iota
	roleLeaf             // tested, not traversed
	roleNode             // fetched and traversed
	roleCandidate        // fetched to read its Owner: traversed if the task owns it (Owner tasks)
	roleAvoided          // neither tested nor traversed (an Avoid rule)
	roleLeafByKind       // tested as a leaf because of how it was referenced (an image, a style sheet): a link to it may still make it a node
)

// waiter is a task waiting for a target's result, and why.
type waiter struct {
	task  *taskRun
	role  uint8 // roleNode or roleCandidate
	depth int32
	from  int32 // the document that referenced it (for the report's order)
}

// board is what a task's traversal needs of its run: the run's targets, and a way to ask
// for a target's test (request), whose result comes back to delivered.
type board interface {
	targets() *targetTable
	request(t *target, m mode, w waiter, referer string)
	// document counts a document the traversal made without reading a page (a library's
	// folder), as the reports count it.
	document()
}

// taskRun is one task's traversal within a run: breadth-first from the top, each document's
// references tested, the documents of the infostructure traversed.
type taskRun struct {
	task    Task
	rules   ruleSet
	site    string // Site and Tree: the top's site key
	dir     string // Tree: the top's directory
	roles   map[int32]uint8
	docs    []docEntry
	docURLs map[string]bool // documents traversed, by requested and final URL
	limited bool            // MaxPages cut the traversal
	max     int
}

// docEntry is a document the task traversed, in breadth-first order.
type docEntry struct {
	t     int32
	depth int32
}

func newTaskRun(t Task, rules ruleSet) *taskRun {
	tr := &taskRun{task: t, rules: rules, roles: map[int32]uint8{}, docURLs: map[string]bool{}, max: t.Options.MaxPages}
	if tr.max <= 0 {
		tr.max = DefaultMaxPages
	}
	if u, err := url.Parse(t.Top); err == nil {
		tr.site = siteKey(u)
		tr.dir = u.EscapedPath()
		if !strings.HasSuffix(tr.dir, "/") {
			tr.dir = path.Dir(tr.dir)
			if !strings.HasSuffix(tr.dir, "/") {
				tr.dir += "/"
			}
		}
	}
	return tr
}

// start requests the top document.
func (tr *taskRun) start(b board) {
	top := b.targets().of(tr.task.Top, nil)
	tr.roles[top.idx] = roleNode
	b.request(top, modeDoc, waiter{task: tr, role: roleNode}, "")
}

// inScope reports whether a URL is inside a Site or Tree infostructure (Owner tasks decide
// by the document's Owner instead).
func (tr *taskRun) inScope(u *url.URL) bool {
	switch tr.task.Type {
	case Site:
		return siteKey(u) == tr.site
	case Tree:
		return siteKey(u) == tr.site && strings.HasPrefix(u.EscapedPath(), tr.dir)
	}
	return true
}

// delivered is told a target's result: a document of the infostructure is traversed.
func (tr *taskRun) delivered(b board, t *target, w waiter) {
	res := t.res
	if !res.isDoc {
		if t.reread(modeDoc) {
			b.request(t, modeDoc, w, "") // probed (or read for its ids) for another task first: now read it
		}
		return // a leaf after all: not HTML, or it failed
	}
	if w.role == roleCandidate && !strings.EqualFold(strings.TrimSpace(res.owner), tr.task.Name) {
		tr.roles[t.idx] = roleLeaf
		return
	}
	final := res.v.FinalURL
	if final != "" && tr.task.Type != Owner {
		if fu, err := url.Parse(final); err != nil || !tr.inScope(fu) {
			tr.roles[t.idx] = roleLeaf // moved out of the infostructure
			return
		}
	}
	if tr.docURLs[t.url] || final != "" && tr.docURLs[final] {
		return
	}
	if len(tr.docs) >= tr.max {
		tr.limited = true
		tr.roles[t.idx] = roleLeaf
		return
	}
	tr.roles[t.idx] = roleNode
	tr.docURLs[t.url] = true
	if final != "" {
		tr.docURLs[final] = true
	}
	tr.docs = append(tr.docs, docEntry{t: t.idx, depth: w.depth})
	for _, rf := range t.refs {
		tr.reference(b, t, rf, w.depth+1)
	}
}

// reference decides what the task does with one reference of a traversed document.
func (tr *taskRun) reference(b board, from *target, rf ref, depth int32) {
	if b.targets().list[rf.t].base != nil {
		return // a missing part of a page the document references too: nothing to traverse
	}
	role := tr.roles[rf.t]
	if role != roleNone && (role != roleLeafByKind || !traversable(rf.kind)) {
		return
	}
	t := b.targets().list[rf.t]
	avoid, leaf := tr.rules.match(t.url)
	switch {
	case avoid, tr.task.Options.InternalOnly && t.u != nil && siteKey(t.u) != tr.site:
		tr.roles[t.idx] = roleAvoided
		return
	case leaf || t.bad != nil || !looksLikeDoc(t.u):
	case !traversable(rf.kind) || tr.task.Options.MaxDepth > 0 && int(depth) > tr.task.Options.MaxDepth:
		if role == roleNone {
			tr.roles[t.idx] = roleLeafByKind
			mode := modeProbe
			if tr.task.Type != Owner && tr.inScope(t.u) {
				mode = modeDoc // a page of the site named by a <link rel=next>: a link to it will likely follow
			}
			b.request(t, mode, waiter{}, from.url)
		}
		return
	case tr.task.Type == Owner:
		tr.roles[t.idx] = roleCandidate
		b.request(t, modeDoc, waiter{task: tr, role: roleCandidate, depth: depth, from: from.idx}, from.url)
		return
	case tr.inScope(t.u):
		if len(tr.docs) >= tr.max {
			tr.limited = true
			break
		}
		tr.roles[t.idx] = roleNode
		b.request(t, modeDoc, waiter{task: tr, role: roleNode, depth: depth, from: from.idx}, from.url)
		return
	}
	tr.roles[t.idx] = roleLeaf
	b.request(t, modeProbe, waiter{}, from.url)
}

// siteKey is host and effective port: MOMspider's site (http and https count as one, so
// that a site that moved to https stays one infostructure).
func siteKey(u *url.URL) string {
	port := u.Port()
	if port == "" || port == "80" && u.Scheme == "http" || port == "443" && u.Scheme == "https" {
		port = "default"
	}
	return strings.ToLower(u.Hostname()) + ":" + port
}
