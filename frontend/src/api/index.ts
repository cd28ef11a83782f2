// The frontend's only door to the backend: typed wrappers over the generated Wails
// bindings and runtime, one module per domain. Features import this module, never wailsjs.
export * from './types';
export * from './call';
export * from './window';
export * from './workspace';
export * from './crawl';
export * from './pages';
export * from './search';
export * from './library';
export * from './graph';
export * from './rules';
export * from './archive';
export * from './exchange';
export * from './check';
export * from './door';
export * from './capture';
