import { describe, expect, it } from 'vitest';
import { single } from './single';

/** A refresh whose runs are ended by hand; it counts the runs at once. */
function refresh() {
  const ends: (() => void)[] = [];
  let running = 0;
  let most = 0;
  let runs = 0;
  const f = single(
    () =>
      new Promise<void>((resolve) => {
        runs++;
        running++;
        most = Math.max(most, running);
        ends.push(() => {
          running--;
          resolve();
        });
      }),
  );
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { f, ends, flush, runs: () => runs, most: () => most };
}

describe('single', () => {
  it('gives a call made during a run the next run, one for all such calls, never overlapping', async () => {
    const r = refresh();
    const first = r.f();
    expect(r.runs()).toBe(1);
    const a = r.f();
    const b = r.f();
    expect(a).toBe(b);
    await r.flush();
    expect(r.runs()).toBe(1); // the next run waits for the first
    let aDone = false;
    void a.then(() => (aDone = true));
    r.ends.shift()!();
    await first;
    await r.flush();
    expect(r.runs()).toBe(2); // started after the first ended
    expect(aDone).toBe(false); // a answers with the run that started after it
    r.ends.shift()!();
    await a;
    expect(r.most()).toBe(1);
    // Idle again: a call runs at once.
    const c = r.f();
    expect(r.runs()).toBe(3);
    r.ends.shift()!();
    await c;
  });

  it('runs the next one even when the run under way fails', async () => {
    let n = 0;
    const f = single(async () => {
      n++;
      if (n === 1) throw new Error('no');
    });
    const first = f();
    const again = f();
    await expect(first).rejects.toThrow('no');
    await again;
    expect(n).toBe(2);
  });
});
