import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { router } from './router.svelte';

let stop: () => void;
beforeEach(() => {
  history.replaceState(null, '', '#/crawls/4?state=failed');
  stop = router.start();
});
afterEach(() => stop());

function popTo(hash: string, state: unknown) {
  history.replaceState(state, '', hash);
  window.dispatchEvent(new PopStateEvent('popstate', { state }));
}

describe('router', () => {
  it('reads the location at start', () => {
    expect(router.route).toEqual({ name: 'crawl', id: 4, state: 'failed', page: 1 });
  });

  it('pushes entries for navigation and replaces them for typing', () => {
    const n = history.length;
    router.go({ name: 'page', id: 9, copy: '' });
    expect(location.hash).toBe('#/page/9');
    expect(history.length).toBe(n + 1);
    router.go({ name: 'page', id: 9, copy: '' }); // same place: no entry
    expect(history.length).toBe(n + 1);
    router.replace({ name: 'search', q: 'a', page: 1, view: '' });
    expect(location.hash).toBe('#/search?q=a');
    expect(history.length).toBe(n + 1);
    expect(router.route).toEqual({ name: 'search', q: 'a', page: 1, view: '' });
  });

  it('follows Back and Forward', () => {
    popTo('#/settings', { mundaneum: 2 });
    expect(router.route).toEqual({ name: 'settings' });
  });

  it('goes to the parent view when there is no app history to go back to', () => {
    popTo('#/page/3', null);
    expect(router.back()).toBe(true);
    expect(location.hash).toBe('#/search');
    popTo('#/crawls/3', null);
    expect(router.back()).toBe(true);
    expect(location.hash).toBe('#/crawls');
    expect(router.back()).toBe(false);
  });
});
