// What build.mjs (node) uses of the sources.
export { manifest } from './manifest';
export { checkManifest } from './checkManifest';
