import { fireEvent, render, waitFor } from '@testing-library/svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('../api', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../api')>();
  return { ...orig, libraryChoices: vi.fn(), saveCheckTask: vi.fn() };
});

import { libraryChoices } from '../api';
import { newTask } from './checks';
import TaskForm from './TaskForm.svelte';

afterEach(() => vi.clearAllMocks());

// Issue 28, item 12: a library task's top is picked from the libraries, as the Move dialog's is.
describe('TaskForm', () => {
  it("offers the libraries for a library task's top, narrowed as it is typed", async () => {
    vi.mocked(libraryChoices).mockImplementation(async (q: string) =>
      [
        { id: 2, path: '/Research', recent: true },
        { id: 3, path: '/Research/Otlet', recent: false },
        { id: 4, path: '/Computing', recent: false },
      ].filter((c) => c.path.toLowerCase().includes(q.toLowerCase())),
    );
    const { container } = render(TaskForm, { task: { ...newTask(), type: 'library' }, onsaved: () => {} });
    const top = container.querySelector<HTMLInputElement>('input[name="top"]')!;
    const list = () => [...container.querySelectorAll(`datalist#${top.getAttribute('list')} option`)].map((o) => (o as HTMLOptionElement).value);
    await waitFor(() => expect(list()).toEqual(['/Research', '/Research/Otlet', '/Computing']));
    await fireEvent.input(top, { target: { value: '/Res' } });
    await waitFor(() => expect(list()).toEqual(['/Research', '/Research/Otlet']));
    expect(libraryChoices).toHaveBeenLastCalledWith('/Res', 20);
  });

  it('keeps a plain address box for a site task', () => {
    const { container } = render(TaskForm, { task: { ...newTask(), type: 'site' }, onsaved: () => {} });
    expect(container.querySelector('input[name="top"]')!.getAttribute('list')).toBeNull();
  });
});
