import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFrame } from './firstFrame';

describe('afterFrame', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('runs once, after the next animation frame', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const f = vi.fn();
    afterFrame(f, 60_000);
    await new Promise((r) => setTimeout(r, 10));
    expect(f).not.toHaveBeenCalled(); // no frame yet
    frames.forEach((cb) => cb(0));
    await vi.waitFor(() => expect(f).toHaveBeenCalledTimes(1));
  });

  it('runs once without a frame (a hidden page), after the fallback, and not again at a frame', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const f = vi.fn();
    afterFrame(f, 5);
    await vi.waitFor(() => expect(f).toHaveBeenCalledTimes(1));
    frames.forEach((cb) => cb(0));
    await new Promise((r) => setTimeout(r, 10));
    expect(f).toHaveBeenCalledTimes(1);
  });
});
