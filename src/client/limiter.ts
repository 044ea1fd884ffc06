/**
 * A model's concurrency, adapted to the server: halved on a 429 (at most once a second, never
 * below 1), raised by one after each `limit` successes in a row, up to the configured maximum.
 */
export class AdaptiveLimit {
  limit: number;
  inFlight = 0;
  private successes = 0;
  private lastCut = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly max: number) {
    this.limit = max;
  }

  /** Wait for a free slot. */
  acquire(): Promise<void> {
    if (this.inFlight < this.limit) {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve) =>
      this.waiters.push(() => {
        this.inFlight++;
        resolve();
      }),
    );
  }

  /** Give a slot back. */
  release(): void {
    this.inFlight--;
    this.wake();
  }

  private wake(): void {
    while (this.inFlight < this.limit && this.waiters.length > 0) this.waiters.shift()!();
  }

  /** A 429: cut the limit in half. */
  onRateLimited(now = Date.now()): void {
    this.successes = 0;
    if (now - this.lastCut < 1000) return;
    this.lastCut = now;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
  }

  /** A success: after `limit` of them in a row, allow one more in flight. */
  onSuccess(): void {
    if (this.limit >= this.max) return;
    if (++this.successes >= this.limit) {
      this.successes = 0;
      this.limit++;
      this.wake();
    }
  }
}
