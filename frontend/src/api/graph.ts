// The link graph: a crawl's picture, paths, a page's relations, trees and orphans.
// Part of src/api, the only code that touches the generated bindings.
import * as App from '../../wailsjs/go/app/App';
import { call } from './call';
import type { GraphData, Orphans, PageRelations, PathResult, Tree } from './types';

/** The picture of a crawl: up to limit visited pages with tree parents, and their links. */
export async function graphView(crawlId: number, limit: number): Promise<GraphData> {
  return call(() => App.GraphView(crawlId, limit));
}

/** A shortest path between two pages (either way: degrees of separation) and the path counts. */
export async function graphPath(fromId: number, toId: number, undirected: boolean): Promise<PathResult> {
  return call(() => App.GraphPath(fromId, toId, undirected));
}

/** A page's links both ways, the elements that reached it, its click depth. */
export async function graphLinks(pageId: number, limit = 50): Promise<PageRelations> {
  return call(() => App.GraphLinks(pageId, limit));
}

/** A crawl's tree of elements, or the tree rule text generates over the stored links. */
export async function graphTree(crawlId: number, rules: string, limit: number): Promise<Tree> {
  return call(() => App.GraphTree(crawlId, rules, limit));
}

/** Pages of a crawl (0: the workspace) that no other page links to. */
export async function orphans(crawlId: number, limit = 100): Promise<Orphans> {
  return call(() => App.Orphans(crawlId, limit));
}
