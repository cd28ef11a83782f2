/**
 * Wraps a refresh (a call that reads state from the backend and keeps it) so that its runs
 * never overlap and never answer with something older than the call: a call made while a
 * run is under way gets the next run, which starts when that one ends (one for all such
 * calls). Answering it with the run under way would keep what that run read before, say, a
 * deletion the caller has just made, and nothing would read again.
 */
export function single(f: () => Promise<void>): () => Promise<void> {
  let current: Promise<void> | null = null; // the run under way
  let next: Promise<void> | null = null; // the run that starts after it
  const start = (): Promise<void> => {
    const p: Promise<void> = f().finally(() => {
      if (current === p && next === null) current = null;
    });
    current = p;
    return p;
  };
  return () => {
    if (current === null) return start();
    next ??= current.then(
      () => {
        next = null;
        return start();
      },
      () => {
        next = null;
        return start();
      },
    );
    return next;
  };
}
