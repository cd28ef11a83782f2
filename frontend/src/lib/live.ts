// Live requests: debounce what the user types, run it, and drop every answer that is not
// for the latest request (a slow answer to "ca" must never replace the one to "cat").

export interface LiveOptions<A, R> {
  /** Does the work; its answer is delivered only if no later request was made meanwhile. */
  run: (args: A) => Promise<R>;
  /** The pause after the last schedule() before run starts, in ms. */
  delay: number;
  /**
   * Run a schedule() at once when nothing is waiting or in flight and the last run started
   * at least `delay` ago: the first key after a pause answers without waiting, a burst of
   * keys still waits for its end.
   */
  leading?: boolean;
  /** Receives the answer of the latest request. */
  onresult: (result: R, args: A) => void;
  /** Receives the failure of the latest request. */
  onerror: (err: unknown, args: A) => void;
  /** Told when the latest request starts and ends. */
  onbusy?: (busy: boolean) => void;
}

export class Live<A, R> {
  #o: LiveOptions<A, R>;
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pending = false;
  #inFlight = 0;
  #lastStart = -Infinity;

  constructor(o: LiveOptions<A, R>) {
    this.#o = o;
  }

  /** Runs args after the debounce delay, unless another request comes first. */
  schedule(args: A) {
    if (this.#o.leading && !this.#pending && this.#inFlight === 0 && Date.now() - this.#lastStart >= this.#o.delay) {
      void this.now(args);
      return;
    }
    this.#seq++; // an answer still in flight is stale from now on
    clearTimeout(this.#timer);
    this.#pending = true;
    this.#timer = setTimeout(() => {
      this.#pending = false;
      void this.now(args);
    }, this.#o.delay);
  }

  /** Runs args at once; resolves when it is answered (or dropped as stale). */
  async now(args: A): Promise<void> {
    clearTimeout(this.#timer);
    this.#pending = false;
    const mine = ++this.#seq;
    this.#lastStart = Date.now();
    this.#inFlight++;
    this.#o.onbusy?.(true);
    try {
      const r = await this.#o.run(args);
      if (mine === this.#seq) this.#o.onresult(r, args);
    } catch (err) {
      if (mine === this.#seq) this.#o.onerror(err, args);
    } finally {
      this.#inFlight--;
      if (mine === this.#seq) this.#o.onbusy?.(false);
    }
  }

  /** Forgets the pending request and any answer in flight. */
  cancel() {
    clearTimeout(this.#timer);
    this.#pending = false;
    if (this.#seq > 0) this.#o.onbusy?.(false);
    this.#seq++;
  }

  /** Reports whether a request is waiting for its debounce delay. */
  get pending(): boolean {
    return this.#pending;
  }
}
