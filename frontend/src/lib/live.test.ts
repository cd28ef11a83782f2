import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Live } from './live';

/** A request whose answer the test releases by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setup(leading = false) {
  const calls: string[] = [];
  const pending = new Map<string, ReturnType<typeof deferred<string>>>();
  const got: string[] = [];
  const errors: string[] = [];
  const busy: boolean[] = [];
  const live = new Live<string, string>({
    run: (q) => {
      calls.push(q);
      const d = deferred<string>();
      pending.set(q, d);
      return d.promise;
    },
    delay: 120,
    leading,
    onresult: (r) => got.push(r),
    onerror: (e) => errors.push(String(e)),
    onbusy: (b) => busy.push(b),
  });
  return { live, calls, pending, got, errors, busy };
}

describe('Live', () => {
  it('debounces: only the last of quick keystrokes runs, after the delay', async () => {
    const { live, calls } = setup();
    live.schedule('c');
    await vi.advanceTimersByTimeAsync(50);
    live.schedule('ca');
    await vi.advanceTimersByTimeAsync(50);
    live.schedule('cat');
    expect(live.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(119);
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['cat']);
    expect(live.pending).toBe(false);
  });

  it('drops a slow answer that a later request overtook', async () => {
    const { live, pending, got, busy } = setup();
    const first = live.now('ca');
    const second = live.now('cat');
    pending.get('cat')!.resolve('results for cat');
    await second;
    pending.get('ca')!.resolve('results for ca');
    await first;
    expect(got).toEqual(['results for cat']);
    expect(busy).toEqual([true, true, false]);
  });

  it('drops an answer in flight when the user types again', async () => {
    const { live, pending, got, calls } = setup();
    const first = live.now('ca');
    live.schedule('cat');
    pending.get('ca')!.resolve('results for ca');
    await first;
    expect(got).toEqual([]);
    await vi.advanceTimersByTimeAsync(120);
    expect(calls).toEqual(['ca', 'cat']);
    pending.get('cat')!.resolve('results for cat');
    await vi.advanceTimersByTimeAsync(0);
    expect(got).toEqual(['results for cat']);
  });

  it('reports only the latest failure', async () => {
    const { live, pending, got, errors } = setup();
    const a = live.now('a');
    const b = live.now('b');
    pending.get('a')!.reject(new Error('old failure'));
    pending.get('b')!.reject(new Error('new failure'));
    await Promise.all([a, b]);
    expect(got).toEqual([]);
    expect(errors).toEqual(['Error: new failure']);
  });

  it('now() cancels a pending schedule; cancel() forgets everything', async () => {
    const { live, calls, pending, got } = setup();
    live.schedule('x');
    const p = live.now('y');
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toEqual(['y']);
    live.cancel();
    pending.get('y')!.resolve('y!');
    await p;
    expect(got).toEqual([]);
    live.schedule('z');
    live.cancel();
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toEqual(['y']);
  });

  it('with leading: answers the first key after a pause at once, then debounces the burst', async () => {
    const { live, calls, pending } = setup(true);
    live.schedule('c');
    expect(calls).toEqual(['c']); // no wait
    await vi.advanceTimersByTimeAsync(30);
    pending.get('c')!.resolve('c!');
    await vi.advanceTimersByTimeAsync(20);
    live.schedule('ca'); // 50 ms after the last start: part of the burst
    await vi.advanceTimersByTimeAsync(60);
    live.schedule('cat');
    await vi.advanceTimersByTimeAsync(119);
    expect(calls).toEqual(['c']);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['c', 'cat']);
    // While an answer is in flight, a key waits for the pause too.
    await vi.advanceTimersByTimeAsync(500);
    live.schedule('cats');
    expect(calls).toEqual(['c', 'cat']);
    await vi.advanceTimersByTimeAsync(120);
    expect(calls).toEqual(['c', 'cat', 'cats']);
    // After a pause with nothing in flight, at once again.
    pending.get('cat')!.resolve('cat!');
    pending.get('cats')!.resolve('cats!');
    await vi.advanceTimersByTimeAsync(500);
    live.schedule('dog');
    expect(calls).toEqual(['c', 'cat', 'cats', 'dog']);
  });
});
