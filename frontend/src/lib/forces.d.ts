// graphology-layout-forceatlas2 ships no types for its inner modules.
declare module 'graphology-layout-forceatlas2/iterate.js' {
  export default function iterate(options: Record<string, unknown>, nodes: Float32Array, edges: Float32Array): void;
}
declare module 'graphology-layout-forceatlas2/helpers.js' {
  export function graphToByteArrays(
    graph: unknown,
    getEdgeWeight: () => number,
  ): { nodes: Float32Array; edges: Float32Array };
}
declare module 'graphology-layout-forceatlas2/defaults.js' {
  const defaults: Record<string, unknown>;
  export default defaults;
}
