import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../api';
import { findNodes, hashColor, hslHex, nodeColor, pathEdges, topHosts, treePositions } from './graphLayout';

function node(i: number, parent: number, over: Partial<GraphNode> = {}): GraphNode {
  return { id: 100 + i, url: `http://a.org/${i}`, host: 'a.org', state: 'fetched', status: 200, family: '', value: 'next', followed: true, parent, ...over };
}

describe('treePositions', () => {
  it('puts children below their parent and siblings apart', () => {
    const nodes = [node(0, -1), node(1, 0), node(2, 0), node(3, 1)];
    const { x, y } = treePositions(nodes);
    expect(y[1]).toBeLessThan(y[0]);
    expect(y[1]).toBe(y[2]);
    expect(y[3]).toBeLessThan(y[1]);
    expect(x[1]).not.toBe(x[2]);
  });
  it('joins several seeds and ignores bad parents', () => {
    const { x, y } = treePositions([node(0, -1), node(1, -1), node(2, 7), node(3, 3)]);
    expect(y[0]).toBe(y[1]);
    expect(new Set([x[0], x[1], x[2], x[3]]).size).toBe(4);
  });
  it('lays out 10,000 nodes', () => {
    const nodes = Array.from({ length: 10000 }, (_, i) => node(i, i === 0 ? -1 : Math.floor((i - 1) / 8)));
    const { y } = treePositions(nodes);
    expect(y[9999]).toBeLessThan(y[0]);
  });
});

describe('colours', () => {
  it('are stable per host and by status class', () => {
    expect(hashColor('a.org')).toBe(hashColor('a.org'));
    expect(hashColor('a.org')).not.toBe(hashColor('b.org'));
    expect(hashColor('a.org')).toMatch(/^#[0-9a-f]{6}$/);
    expect(hslHex(0, 1, 0.5)).toBe('#ff0000');
    expect(hslHex(120, 1, 0.25)).toBe('#008000');
    expect(nodeColor(node(0, -1, { status: 404 }), 'status')).not.toBe(nodeColor(node(0, -1), 'status'));
    expect(nodeColor(node(0, -1, { value: 'rejected' }), 'category')).not.toBe(nodeColor(node(0, -1), 'category'));
  });
  it('lists the biggest hosts first', () => {
    const hosts = topHosts([node(0, -1, { host: 'b' }), node(1, 0), node(2, 0)], 5);
    expect(hosts.map((h) => [h.label, h.count])).toEqual([['a.org', 2], ['b', 1]]);
  });
});

describe('paths and finding', () => {
  it('makes edge keys both ways', () => {
    expect([...pathEdges([1, 2, 3])]).toEqual(['1>2', '2>1', '2>3', '3>2']);
  });
  it('finds nodes by words of their URL or title', () => {
    const nodes = [node(0, -1, { title: 'Annual report' }), node(1, 0)];
    expect(findNodes(nodes, 'REPORT', 5).map((n) => n.id)).toEqual([100]);
    expect(findNodes(nodes, 'a.org/1', 5).map((n) => n.id)).toEqual([101]);
    expect(findNodes(nodes, '  ', 5)).toEqual([]);
  });
});
