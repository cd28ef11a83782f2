import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { GraphNode } from '../api';
import PagePicker from './PagePicker.svelte';

function node(id: number, url: string, title: string): GraphNode {
  return { id, url, title, host: 'a.test', state: 'fetched', family: '', value: '', followed: true, parent: 0 } as GraphNode;
}
const nodes = [node(1, 'http://a.test/', 'Home'), node(2, 'http://a.test/mons', 'Mons archive'), node(3, 'http://a.test/mons/cards', 'Mons cards')];

describe('PagePicker', () => {
  it('picks the suggestion ↓ highlights with Enter', async () => {
    const onchoose = vi.fn();
    render(PagePicker, { label: 'From', nodes, chosen: -1, onchoose });
    const box = screen.getByRole('combobox', { name: 'From' });
    await fireEvent.input(box, { target: { value: 'mons' } });
    expect(screen.getAllByRole('option').map((o) => o.textContent?.trim())).toEqual(['Mons archive', 'Mons cards']);
    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    await fireEvent.keyDown(box, { key: 'ArrowDown' });
    const second = screen.getByRole('option', { name: 'Mons cards' });
    expect(second.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(second.id);
    await fireEvent.keyDown(box, { key: 'ArrowUp' });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onchoose).toHaveBeenCalledWith(1);
    expect((box as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('picks the first suggestion with Enter alone, and any with a click', async () => {
    const onchoose = vi.fn();
    render(PagePicker, { label: 'To', nodes, chosen: -1, onchoose });
    const box = screen.getByRole('combobox', { name: 'To' });
    await fireEvent.input(box, { target: { value: 'cards' } });
    await fireEvent.keyDown(box, { key: 'Enter' });
    expect(onchoose).toHaveBeenLastCalledWith(2);
    await fireEvent.input(box, { target: { value: 'mons' } });
    await fireEvent.click(screen.getByRole('option', { name: 'Mons archive' }));
    expect(onchoose).toHaveBeenLastCalledWith(1);
  });

  it('types j and k as letters, and Esc closes the suggestions', async () => {
    render(PagePicker, { label: 'From', nodes, chosen: -1, onchoose: vi.fn() });
    const box = screen.getByRole('combobox', { name: 'From' });
    await fireEvent.input(box, { target: { value: 'mons' } });
    const j = new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true });
    box.dispatchEvent(j);
    expect(j.defaultPrevented).toBe(false);
    await fireEvent.keyDown(box, { key: 'Escape' });
    expect((box as HTMLInputElement).value).toBe('');
    expect(screen.queryByRole('listbox')).toBeNull();
  });
});
