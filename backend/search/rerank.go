package search

import (
	"context"
	"fmt"
	"mundaneum/backend/highlight"
	"mundaneum/backend/query"
	"mundaneum/backend/tokenize"
	"net/url"
	"slices"
	"strings"
)

// The second stage of ranking. bm25 over the weighted columns (the first stage) finds and
// orders the matches, and the citation boost lifts pages many others cite; then the best
// BoostDepth of them are scored again on what bm25 cannot see, from their titles and URLs
// alone (one indexed read of the pages table, no text):
//
//   - title coverage: the share of the query's words (any of their forms) that the title
//     or the URL's last path segment holds ("git-reflog.html" names the reflog command,
//     "sql-vacuum.html" the VACUUM reference). bm25's title column saturates: a title
//     sharing two of three words with much repetition in the body beats the title that
//     has all three; coverage counts words, not occurrences.
//   - the title is the query: every title word is a query word (the reference page of
//     exactly what was asked, "VACUUM" for "vacuum").
//   - page kind: release notes, changelogs and back-of-book indexes hold every rare word
//     of a project once without being about it; they are scaled down unless the query asks
//     for them (its words name the kind: "release", "changes", "new", "index").
//
//   - the title within the query: every title word is a query word, the page is named by
//     part of what was asked ("VACUUM" for `vacuum full`, "git-log(1)" for `git log
//     --follow`, "RETURNING" for `RETURNING clause`).
//
// score = first stage × (1 + TitleCover·coverage + TitleWithin·coverage·[title within the
// query]). A title that is the query (within it and covering it) gets × 4 with the default
// weights. Explain also says when the title has every query word and when it is exactly the
// query; separate weights for those added nothing on the tuning split (scripts/rankgrid). × (KindScale if a changelog or index page).
// Each factor is in Explain's output.

// term is one query word with the forms that count as it.
type term struct {
	forms  []string
	prefix string // a prefix word (word*): any token it starts
}

func (t term) in(tokens []string) bool {
	for _, tok := range tokens {
		if t.prefix != "" && strings.HasPrefix(tok, t.prefix) || slices.Contains(t.forms, tok) {
			return true
		}
	}
	return false
}

// queryTerms lists the positive words of a query, each once.
func queryTerms(root query.Node, w Weights) []term {
	var out []term
	seen := map[string]bool{}
	add := func(t *query.Text) {
		for i, word := range t.Words {
			f := tokenize.Fold(word)
			if seen[f] {
				continue
			}
			seen[f] = true
			if t.Prefix && i == len(t.Words)-1 {
				out = append(out, term{prefix: f})
				continue
			}
			forms := []string{f}
			if !t.Phrase && w.Stem && t.Field != query.FieldURL {
				forms = append(forms, highlight.Forms(f, w.MaxVariants)...)
			}
			out = append(out, term{forms: forms})
		}
	}
	highlight.EachWanted(root, add)
	return out
}

// lastSegment returns the words of a URL's last path segment without its extension (the
// one before a trailing slash), and the words of the whole path.
func lastSegment(raw string) (last, path []string) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, nil
	}
	p := strings.TrimSuffix(u.Path, "/")
	seg := p[strings.LastIndexByte(p, '/')+1:]
	if i := strings.LastIndexByte(seg, '.'); i > 0 && len(seg)-i <= 6 {
		seg = seg[:i]
	}
	return tokenize.List(seg), tokenize.List(p)
}

// kindWords name a page kind that holds many words without being about them; a query that
// uses one of them asks for such pages.
var kindWords = map[string]bool{
	"release": true, "releases": true, "releaselog": true, "changelog": true, "changes": true,
	"news": true, "whatsnew": true, "history": true, "genindex": true, "bookindex": true,
}

// askKind are query words that ask for changelogs or indexes.
var askKind = map[string]bool{"release": true, "releases": true, "changelog": true, "changes": true,
	"new": true, "news": true, "history": true, "index": true, "version": true}

// isListPage reports whether a page is a changelog, release note or index by its title and
// path words.
func isListPage(title, path []string) bool {
	if len(title) == 1 && title[0] == "index" {
		return true
	}
	for _, w := range title {
		if kindWords[w] {
			return true
		}
	}
	for _, w := range path {
		if kindWords[w] {
			return true
		}
	}
	return false
}

func (w Weights) factor(f factors) float64 {
	x := 1 + w.TitleCover*f.Coverage
	if f.Within {
		x += w.TitleWithin * f.Coverage // "git(1)" is within `git stash pop` but names a third of it
	}
	if f.List {
		x *= w.KindScale
	}
	return x
}

// signals computes the second-stage signals of one page for the terms.
func signals(terms []term, asksList bool, title, rawURL string) factors {
	tw := tokenize.List(title) // folded as the index folds them
	last, path := lastSegment(rawURL)
	both := append(slices.Clone(tw), last...)
	var f factors
	covered := 0
	for _, t := range terms {
		if t.in(both) {
			covered++
		}
	}
	if len(terms) > 0 {
		f.Coverage = float64(covered) / float64(len(terms))
		f.All = covered == len(terms)
	}
	f.Within = allQueryWords(tw, terms) || allQueryWords(last, terms)
	f.Exact = f.All && f.Within
	f.List = !asksList && isListPage(tw, path)
	return f
}

// allQueryWords reports whether every word of a title (short numbers aside: "git-log(1)")
// is one of the query's.
func allQueryWords(tw []string, terms []term) bool {
	n := 0
	for _, w := range tw {
		if len(w) <= 1 && w[0] >= '0' && w[0] <= '9' {
			continue
		}
		if !slices.ContainsFunc(terms, func(t term) bool { return t.in([]string{w}) }) {
			return false
		}
		n++
	}
	return n > 0
}

func asksForList(terms []term) bool {
	for _, t := range terms {
		for _, f := range t.forms {
			if askKind[f] {
				return true
			}
		}
	}
	return false
}

// titleSignals reads the second stage's signals of hits (the first BoostDepth of them)
// from their titles and URLs; nil when the stage is off or the query has no words.
func (s *Searcher) titleSignals(ctx context.Context, root query.Node, hits []hit) (map[int64]factors, error) {
	if !s.w.Rerank || len(hits) == 0 {
		return nil, nil
	}
	terms := queryTerms(root, s.w)
	if len(terms) == 0 {
		return nil, nil
	}
	asks := asksForList(terms)
	rows, err := s.db.QueryContext(ctx, `SELECT id, coalesce(title, ''), url FROM pages WHERE id IN (SELECT value FROM json_each(?))`, idsJSON(hits))
	if err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	defer rows.Close()
	sig := make(map[int64]factors, len(hits))
	for rows.Next() {
		var id int64
		var title, u string
		if err := rows.Scan(&id, &title, &u); err != nil {
			return nil, fmt.Errorf("rerank: %w", err)
		}
		sig[id] = signals(terms, asks, title, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rerank: %w", err)
	}
	return sig, nil
}
