import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { WorkspaceState } from '../api';
import HeldView from './HeldView.svelte';

const held: WorkspaceState = {
  path: '/home/ada/research.mundaneum',
  open: false,
  held: true,
  holder: { pid: 4242, command: 'mundaneum serve --db /home/ada/research.mundaneum', since: '2026-11-27T09:30:00Z' },
  waiting: true,
  problem: '',
  canChoose: true,
};

describe('HeldView', () => {
  it('says the workspace is in use, by which process, and that it waits', () => {
    render(HeldView, { initial: held, onopen: () => {} });
    expect(screen.getByRole('heading').textContent).toBe('research.mundaneum is in use');
    expect(screen.getByTestId('holder-pid').textContent).toBe('4242');
    expect(screen.getByTestId('holder-command').textContent).toBe('mundaneum serve --db /home/ada/research.mundaneum');
    expect(screen.getByRole('status').textContent).toContain('opens here by itself');
    expect(screen.getByRole('button', { name: 'Open another workspace…' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'New workspace…' })).toBeTruthy();
  });

  it('says when the holder is not known', () => {
    render(HeldView, { initial: { ...held, holder: null as unknown as undefined }, onopen: () => {} });
    expect(screen.queryByTestId('holder-pid')).toBeNull();
    expect(screen.getByText(/Which process holds it is not known/)).toBeTruthy();
  });

  it('shows why a workspace could not be opened', () => {
    render(HeldView, {
      initial: { ...held, held: false, holder: undefined, waiting: false, problem: 'not a mundaneum workspace' },
      onopen: () => {},
    });
    expect(screen.getByRole('heading').textContent).toBe('research.mundaneum could not be opened');
    expect(screen.getByRole('alert').textContent).toBe('not a mundaneum workspace');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the error of a choice that fails, and does not open', async () => {
    let opened = false;
    render(HeldView, { initial: held, onopen: () => (opened = true) });
    await fireEvent.click(screen.getByRole('button', { name: 'Open another workspace…' }));
    expect((await screen.findByRole('alert')).textContent).toContain('not connected');
    expect(opened).toBe(false);
  });
});
