// The window's start: what can wait until the page has shown its first frame.

/**
 * Runs f once, after the page's next frame has been made (a task after the next animation
 * frame), or after fallbackMs if no frame comes (a hidden page gets no animation frames).
 */
export function afterFrame(f: () => void, fallbackMs = 100): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    f();
  };
  setTimeout(run, fallbackMs);
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(run));
}
