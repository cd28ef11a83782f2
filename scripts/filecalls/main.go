// Command filecalls prints, for one Go package, which of its files uses names (functions,
// methods, types, fields, constants) that another of its files defines, read with go/types
// (test files left out), and counts the arrows that lie on a cycle between files: the calls
// that run back up between files, whichever way the files are layered. A star marks them.
//
//	go run ./scripts/filecalls backend/search
package main

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: filecalls PACKAGE-DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	fset := token.NewFileSet()
	pkgs, err := parseDir(fset, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "filecalls:", err)
		os.Exit(1)
	}
	for name, files := range pkgs {
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		// Errors (an import the source importer cannot load) leave some names unresolved:
		// the graph is then smaller, never wrong.
		conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil), Error: func(error) {}}
		tp, _ := conf.Check(name, fset, files, info)
		edges := map[[2]string]map[string]bool{}
		add := func(from token.Pos, obj types.Object) {
			if obj == nil || obj.Pkg() != tp {
				return
			}
			a, b := filepath.Base(fset.Position(from).Filename), filepath.Base(fset.Position(obj.Pos()).Filename)
			if a == b || b == "." {
				return
			}
			k := [2]string{a, b}
			if edges[k] == nil {
				edges[k] = map[string]bool{}
			}
			edges[k][obj.Name()] = true
		}
		for id, obj := range info.Uses {
			add(id.Pos(), obj)
		}
		for sel, s := range info.Selections {
			add(sel.Sel.Pos(), s.Obj())
		}
		// The strongly connected components (Tarjan): an arrow inside one is on a cycle.
		adj := map[string][]string{}
		nodes := map[string]bool{}
		for k := range edges {
			adj[k[0]] = append(adj[k[0]], k[1])
			nodes[k[0]], nodes[k[1]] = true, true
		}
		idx, low, on := map[string]int{}, map[string]int{}, map[string]bool{}
		var stack []string
		comp := map[string]int{}
		n, c := 0, 0
		var strong func(v string)
		strong = func(v string) {
			idx[v], low[v] = n, n
			n++
			stack = append(stack, v)
			on[v] = true
			for _, w := range adj[v] {
				if _, ok := idx[w]; !ok {
					strong(w)
					low[v] = min(low[v], low[w])
				} else if on[w] {
					low[v] = min(low[v], idx[w])
				}
			}
			if low[v] == idx[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					comp[w] = c
					if w == v {
						break
					}
				}
				c++
			}
		}
		var names []string
		for v := range nodes {
			names = append(names, v)
		}
		sort.Strings(names)
		for _, v := range names {
			if _, ok := idx[v]; !ok {
				strong(v)
			}
		}
		var keys [][2]string
		for k := range edges {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i][0]+keys[i][1] < keys[j][0]+keys[j][1] })
		inCycle := 0
		for _, k := range keys {
			mark := " "
			if comp[k[0]] == comp[k[1]] {
				mark = "*"
				inCycle++
			}
			var ns []string
			for x := range edges[k] {
				ns = append(ns, x)
			}
			sort.Strings(ns)
			fmt.Printf("%s %s -> %s: %s\n", mark, k[0], k[1], strings.Join(ns, " "))
		}
		fmt.Printf("files %d, arrows %d, arrows on a cycle %d\n", len(nodes), len(keys), inCycle)
	}
}

// parseDir parses the non-test Go files of dir, grouped by package name (parser.ParseDir,
// deprecated, did the same).
func parseDir(fset *token.FileSet, dir string) (map[string][]*ast.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	pkgs := map[string][]*ast.File{}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			return nil, err
		}
		pkgs[f.Name.Name] = append(pkgs[f.Name.Name], f)
	}
	return pkgs, nil
}
