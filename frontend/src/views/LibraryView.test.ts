import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../wailsjs/runtime/runtime', () => ({ BrowserOpenURL: vi.fn(), EventsOn: vi.fn(() => () => {}) }));
vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return {
    ...orig,
    connected: vi.fn(() => true),
    libraryPage: vi.fn(),
    libraryPreviewDelete: vi.fn(),
    libraryDelete: vi.fn(),
    libraryUndo: vi.fn(),
    libraryRedo: vi.fn(),
    libraryMove: vi.fn(),
    libraryPoint: vi.fn(),
  };
});

import { libraryDelete, libraryMove, libraryPage, libraryPoint, libraryPreviewDelete, libraryRedo, libraryUndo, type LibAdded, type LibPage, type LibPosting } from '../api';
import LibraryView from './LibraryView.svelte';

const evil = '<img src=x onerror="window.__pwned=1">';

function posting(over: Partial<LibPosting>): LibPosting {
  return {
    id: 0, parentId: 2, path: '', kind: 'pointer', title: '', url: '', notes: '', tags: [], purpose: '', createOnly: false,
    order: 'title', position: 0, protected: false, author: '', email: '', hasImage: false, created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:00Z', libraries: 0, postings: 0, known: null, view: null, aliases: [], ...over,
  } as LibPosting;
}

function libPage(over: Partial<LibPage> = {}): LibPage {
  return {
    library: posting({ id: 2, parentId: 1, kind: 'library', title: `Computing ${evil}`, purpose: `Purpose ${evil}`, postings: 3, libraries: 1 }),
    crumbs: [{ id: 1, title: 'Library', path: '/' }],
    image: 'javascript:alert(1)',
    order: 'title',
    libraries: [posting({ id: 3, kind: 'library', title: 'Go', postings: 2 })],
    postings: [
      posting({ id: 4, title: `A ${evil}`, url: 'javascript:alert(1)', notes: `notes ${evil}`, tags: [evil] }),
      posting({ id: 5, title: 'B', url: 'https://b.example/', known: { pageId: 9, title: 'B', state: 'fetched', status: 200, fetchedAt: '', copy: true, reason: '', detail: '' } }),
      posting({ id: 6, kind: 'report', title: 'C' }),
      posting({
        id: 7, title: 'Gone', url: 'https://gone.example/',
        health: { verdict: 'broken', status: 404, finalUrl: '', reason: `not found ${evil}`, checkedAt: '2026-11-20T10:00:00Z', dead: true, permanent: false },
      }),
    ],
    total: 3,
    lastChange: 'deleted "X"',
    undoProtected: false,
    lastChangeBy: '',
    lastChangeMine: true,
    nextRedo: '',
    redoProtected: false,
    nextRedoMine: false,
    ...over,
  } as LibPage;
}

const route = { name: 'library' as const, id: 2, tab: 'list' as const, q: '', order: '' as const };

beforeEach(() => {
  (globalThis as { runtime?: unknown }).runtime = {};
  vi.mocked(libraryPage).mockResolvedValue(libPage());
});
afterEach(() => {
  delete (globalThis as { runtime?: unknown }).runtime;
  vi.clearAllMocks();
});

describe('LibraryView', () => {
  it('shows the header, sub-libraries and postings, with their strings as text', async () => {
    const { container } = render(LibraryView, { route });
    await screen.findByRole('heading', { level: 2, name: `Computing ${evil}` });
    expect(container.textContent).toContain(`Purpose ${evil}`);
    expect(container.textContent).toContain(`notes ${evil}`);
    expect(container.querySelector('img, script')).toBeNull(); // not even the picture: it is no data: image
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(screen.getByRole('list', { name: 'Libraries' }).textContent).toContain('2 postings');
    expect(container.textContent).toContain('fetched 200');
    expect(screen.getByRole('link', { name: 'offline copy' }).getAttribute('href')).toBe('#/page/9?copy=page');
    // What the link checks say of a pointer.
    const health = screen.getByLabelText('Link check');
    expect(health.textContent).toMatch(/broken\s*404/);
    expect(health.textContent).toContain('dead');
    expect(screen.getAllByLabelText('Link check')).toHaveLength(1);
  });

  it('confirms a delete with what goes, then offers undo', async () => {
    vi.mocked(libraryPreviewDelete).mockResolvedValue({ libraries: 1, pointers: 2, reports: 0, views: 0, titles: ['Go'], protected: [] });
    vi.mocked(libraryDelete).mockResolvedValue({ libraries: 1, pointers: 2, reports: 0, views: 0, titles: ['Go'], protected: [] });
    render(LibraryView, { route });
    await fireEvent.click(await screen.findByRole('button', { name: 'Delete Go' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('“Go” and everything in it: 1 library, 2 pointers');
    await fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(libraryDelete).toHaveBeenCalledWith([3], ''));
    await screen.findByText('Deleted. Undo puts it back.');
  });

  it('asks for a password when the backend wants one, and retries with it', async () => {
    vi.mocked(libraryUndo)
      .mockRejectedValueOnce(JSON.stringify({ code: 'forbidden', message: 'undoing it needs the password' }))
      .mockResolvedValueOnce('deleted "X"');
    render(LibraryView, { route });
    await fireEvent.click(await screen.findByRole('button', { name: /^Undo: deleted "X"/ }));
    const form = await screen.findByRole('form', { name: 'Password needed' });
    expect(form.textContent).toContain('undoing it needs the password');
    await fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    await fireEvent.submit(form);
    await waitFor(() => expect(libraryUndo).toHaveBeenLastCalledWith('pw'));
    await screen.findByText('Undone: deleted "X".');
  });

  // Issue 28, item 12: undo had no redo.
  it('offers Redo beside Undo, by button and by Ctrl+Shift+Z / Ctrl+Y, with the password when asked', async () => {
    vi.mocked(libraryPage).mockResolvedValue(libPage({ nextRedo: 'moved "Go" to "Languages"', nextRedoMine: true }));
    vi.mocked(libraryRedo)
      .mockResolvedValueOnce('moved "Go" to "Languages"')
      .mockRejectedValueOnce(JSON.stringify({ code: 'forbidden', message: 'redoing it needs the password' }))
      .mockResolvedValueOnce('moved "Go" to "Languages"');
    render(LibraryView, { route });
    await fireEvent.click(await screen.findByRole('button', { name: 'Redo: moved "Go" to "Languages"' }));
    await waitFor(() => expect(libraryRedo).toHaveBeenCalledWith(''));
    await screen.findByText('Redone: moved "Go" to "Languages".');
    await fireEvent.keyDown(window, { key: 'Z', ctrlKey: true, shiftKey: true });
    const form = await screen.findByRole('form', { name: 'Password needed' });
    expect(form.textContent).toContain('redoing it needs the password');
    await fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    await fireEvent.submit(form);
    await waitFor(() => expect(libraryRedo).toHaveBeenLastCalledWith('pw'));
    // Ctrl+Z undoes; in a text field it is the field's own.
    vi.mocked(libraryUndo).mockResolvedValue('deleted "X"');
    await screen.findByText('Redone: moved "Go" to "Languages".');
    await fireEvent.keyDown(screen.getByRole('searchbox', { name: 'Search this library' }), { key: 'z', ctrlKey: true });
    expect(libraryUndo).not.toHaveBeenCalled();
    await fireEvent.keyDown(window, { key: 'z', ctrlKey: true });
    await waitFor(() => expect(libraryUndo).toHaveBeenCalledWith(''));
  });

  it('offers no Redo when nothing was undone', async () => {
    render(LibraryView, { route });
    await screen.findByRole('button', { name: /^Undo: deleted "X"/ });
    expect(screen.queryByRole('button', { name: /^Redo/ })).toBeNull();
  });

  it('offers to undo only a change that is the user’s, or whose password may be given', async () => {
    vi.mocked(libraryPage).mockResolvedValue(libPage({ lastChange: 'added "Y"', lastChangeBy: 'guest 3f2a', lastChangeMine: false }));
    render(LibraryView, { route });
    const note = await screen.findByText(/Last change, by guest 3f2a: added "Y"/);
    expect(note.tagName).not.toBe('BUTTON');
    expect(screen.queryByRole('button', { name: /^Undo/ })).toBeNull();
  });

  it('says whose a protected change is, and asks for its password to undo it', async () => {
    vi.mocked(libraryPage).mockResolvedValue(libPage({ lastChange: 'edited "Y"', lastChangeBy: 'guest 3f2a', lastChangeMine: false, undoProtected: true }));
    render(LibraryView, { route });
    await screen.findByRole('button', { name: /^Undo guest 3f2a’s change: edited "Y"/ });
  });

  it('posts into a protected library with its password, asked for when refused', async () => {
    vi.mocked(libraryPoint)
      .mockRejectedValueOnce(JSON.stringify({ code: 'forbidden', message: '"Computing" has a password: give it to post into it' }))
      .mockResolvedValueOnce({ posting: posting({ id: 9, title: 'New' }), alsoIn: [] } as LibAdded);
    render(LibraryView, { route });
    await fireEvent.click(await screen.findByRole('button', { name: 'Add pointer' }));
    await fireEvent.input(screen.getByLabelText('Address'), { target: { value: 'https://new.example/' } });
    await fireEvent.submit(screen.getByRole('form', { name: 'New pointer' }));
    const ask = await screen.findByRole('form', { name: 'Password needed' });
    await fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'lib-pw' } });
    await fireEvent.submit(ask);
    await waitFor(() => expect(libraryPoint).toHaveBeenLastCalledWith(2, expect.objectContaining({ url: 'https://new.example/', libraryPassword: 'lib-pw', password: '' })));
    await screen.findByText(/^Added “New”/);
  });

  it('moves a dragged posting to where it is dropped', async () => {
    vi.mocked(libraryMove).mockResolvedValue();
    const { container } = render(LibraryView, { route });
    await screen.findByRole('heading', { level: 2, name: `Computing ${evil}` });
    const rowOf = (id: number) => container.querySelector(`li[data-id="${id}"]`)!;
    const data = new Map<string, string>();
    const dataTransfer = { setData: (k: string, v: string) => data.set(k, v), getData: (k: string) => data.get(k) ?? '' };
    await fireEvent.dragStart(rowOf(6), { dataTransfer });
    await fireEvent.dragOver(rowOf(3), { dataTransfer });
    await fireEvent.drop(rowOf(3), { dataTransfer });
    await waitFor(() => expect(libraryMove).toHaveBeenCalledWith([6], 3, -1, ''));
  });
});
