import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { LibPosting } from '../api';
import LibRow from './LibRow.svelte';

function pointer(over: Partial<LibPosting> = {}): LibPosting {
  return {
    id: 7, parentId: 1, path: '/Cards', kind: 'pointer', title: 'Cards', url: 'https://cards.example/', notes: '', tags: [],
    purpose: '', createOnly: false, order: 'title', position: 0, protected: false, openToGuests: false, author: '', email: '',
    hasImage: false, created: '', updated: '', libraries: 0, postings: 0, known: null, health: null, view: null, aliases: [],
    ...over,
  } as LibPosting;
}

const noop = () => {};
const props = (p: LibPosting) => ({ p, dragging: 0, ondragstart: noop, ondragend: noop, ondrop: noop, onaction: noop });

describe('LibRow', () => {
  // Issue 28, item 12 (the row's buttons at full strength is checked in e2e/library.test.mjs:
  // jsdom does not apply the component's styles).
  it('says why a one-off fetch failed, and offers it again', () => {
    const known = { pageId: 3, title: '', state: 'failed', status: 0, fetchedAt: '', copy: false, reason: 'refused', detail: 'dial tcp 127.0.0.1:1: connect: connection refused' };
    const { container } = render(LibRow, props(pointer({ known })));
    const k = container.querySelector<HTMLElement>('.known')!;
    expect(k.textContent).toContain('failed: Connection refused');
    expect(k.title).toBe(known.detail);
    expect(screen.getByRole('button', { name: 'Fetch again' })).toBeTruthy();
  });
});
