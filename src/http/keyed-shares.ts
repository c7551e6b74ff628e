// Shares of something scarce, counted per key (a workspace, a workspace's people), each key with a
// waiting line of its own. Past its `perKey` holders a taker waits its turn, first come first
// served, and a share given back passes straight to the head of that key's line: lines never mix,
// so one key's waiters delay no other key. A line may be bounded in length (a taker past it is
// refused at once) and in wait (a waiter past it is refused): one sweep every SWEEP_MS expires the
// waits of every line, and runs only while someone waits — no timer per waiter. Every step is
// constant time (a waiter whose caller goes away leaves from the middle of its line); a taker that
// finds a free share pays one map lookup and one small object with no closure of its own. A key's
// line outlives its last holder, so that its next taker finds it: the lines of idle keys are
// dropped together once there are more than IDLE_LINES_KEPT, which bounds them at constant cost
// per take.

/** How often waits are checked against their bound: a waiter is refused within this after it. */
export const SWEEP_MS = 100;

/** Lines of keys nobody holds or waits for, kept for their next taker. */
export const IDLE_LINES_KEPT = 1024;

export interface KeyedSharesOptions {
  perKey: number;
  /** Takers one key's line holds; one more is refused at once. Unbounded when absent. */
  maxWaiting?: number;
  /** How long a taker may wait in line before it is refused. Unbounded when absent. */
  maxWaitMs?: number;
  /** Milliseconds on a monotonic clock (`performance.now` when absent). */
  now?: () => number;
}

/** One taker's share of a key. */
export interface Share {
  /**
   * `true`: held now; `false`: refused (the key's line is full); a promise while in line: `true`
   * once the share passed to it, `false` when its wait ran out or it was released first.
   */
  readonly granted: boolean | Promise<boolean>;
  /** Gives the share back, or the place in the line; once, however often called. */
  release(): void;
}

interface Waiter {
  prev: Waiter | null;
  next: Waiter | null;
  deadline: number;
  settle: (granted: boolean) => void;
}

interface Line {
  holders: number;
  waiting: number;
  head: Waiter | null;
  tail: Waiter | null;
}

const REFUSED: Share = { granted: false, release() {} };

// A share held at once: its release is one function of its shares, not a closure made for each taker.
class Held implements Share {
  readonly granted = true;
  #line: Line | null;
  readonly #giveBack: (line: Line) => void;
  constructor(line: Line, giveBack: (line: Line) => void) {
    this.#line = line;
    this.#giveBack = giveBack;
  }
  release() {
    const line = this.#line;
    if (!line) return;
    this.#line = null;
    this.#giveBack(line);
  }
}

/** Shares of one kind, each key with a waiting line of its own (see the top of this file). */
export class KeyedShares {
  readonly perKey: number;
  readonly #maxWaiting: number;
  readonly #maxWaitMs: number;
  readonly #now: () => number;
  readonly #lines = new Map<string, Line>();
  readonly #waitingLines = new Set<Line>();
  readonly #totals = { holding: 0, waiting: 0 };
  #idleLines = 0;
  #sweep: NodeJS.Timeout | null = null;
  readonly #giveBack = (line: Line) => this.#passOn(line);

  constructor(options: KeyedSharesOptions) {
    this.perKey = options.perKey;
    this.#maxWaiting = options.maxWaiting ?? Infinity;
    this.#maxWaitMs = options.maxWaitMs ?? Infinity;
    this.#now = options.now ?? (() => performance.now());
  }

  /** A share of `key`: held at once while the key has one free, else a place in its line, else refused. */
  take(key: string): Share {
    let line = this.#lines.get(key);
    if (!line) this.#lines.set(key, (line = { holders: 0, waiting: 0, head: null, tail: null }));
    else if (line.holders === 0) this.#idleLines--;
    if (line.holders < this.perKey) {
      line.holders++;
      this.#totals.holding++;
      return new Held(line, this.#giveBack);
    }
    return line.waiting < this.#maxWaiting ? this.#wait(line) : REFUSED;
  }

  /** Shares held and takers waiting, over every key. */
  totals(): Readonly<{ holding: number; waiting: number }> {
    return this.#totals;
  }

  /** Keys with a line: held, waited for, or idle and kept. */
  keys(): number {
    return this.#lines.size;
  }

  #leave(line: Line, waiter: Waiter) {
    if (waiter.prev) waiter.prev.next = waiter.next;
    else line.head = waiter.next;
    if (waiter.next) waiter.next.prev = waiter.prev;
    else line.tail = waiter.prev;
    this.#totals.waiting--;
    if (--line.waiting === 0) this.#waitingLines.delete(line);
  }

  /** A holder is done: its share passes to the head of the line as it is, or the key frees one. */
  #passOn(line: Line) {
    const next = line.head;
    if (next) {
      this.#leave(line, next);
      return next.settle(true);
    }
    this.#totals.holding--;
    // No waiter, so a line nobody holds is idle.
    if (--line.holders === 0 && ++this.#idleLines > IDLE_LINES_KEPT) this.#dropIdleLines();
  }

  #dropIdleLines() {
    for (const [key, line] of this.#lines) if (line.holders === 0) this.#lines.delete(key);
    this.#idleLines = 0;
  }

  #expireWaits() {
    const time = this.#now();
    for (const line of this.#waitingLines) {
      // Deadlines grow along a line (one bound, first come first served): only the head is checked.
      while (line.head && line.head.deadline <= time) {
        const waiter = line.head;
        this.#leave(line, waiter);
        waiter.settle(false);
      }
    }
    if (this.#waitingLines.size === 0 && this.#sweep) {
      clearInterval(this.#sweep);
      this.#sweep = null;
    }
  }

  #wait(line: Line): Share {
    // 'waiting' → 'held' (the share passed to it) or 'gone' (refused, or released while waiting).
    let state: 'waiting' | 'held' | 'gone' = 'waiting';
    const waiter: Waiter = { prev: line.tail, next: null, deadline: this.#now() + this.#maxWaitMs, settle: () => {} };
    const granted = new Promise<boolean>((resolve) => {
      waiter.settle = (outcome) => {
        state = outcome ? 'held' : 'gone';
        resolve(outcome);
      };
    });
    if (line.tail) line.tail.next = waiter;
    else line.head = waiter;
    line.tail = waiter;
    this.#totals.waiting++;
    if (line.waiting++ === 0) this.#waitingLines.add(line);
    if (this.#maxWaitMs !== Infinity) this.#sweep ??= setInterval(() => this.#expireWaits(), SWEEP_MS).unref();
    return {
      granted,
      release: () => {
        if (state === 'waiting') {
          this.#leave(line, waiter);
          waiter.settle(false);
        } else if (state === 'held') {
          state = 'gone';
          this.#passOn(line);
        }
      },
    };
  }
}

export const createKeyedShares = (options: KeyedSharesOptions) => new KeyedShares(options);
