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

export function createKeyedShares(options: KeyedSharesOptions) {
  const { perKey, maxWaiting = Infinity, maxWaitMs = Infinity, now = () => performance.now() } = options;
  const lines = new Map<string, Line>();
  const waitingLines = new Set<Line>();
  const totals = { holding: 0, waiting: 0 };
  let idleLines = 0;
  let sweep: NodeJS.Timeout | null = null;

  function leave(line: Line, waiter: Waiter) {
    if (waiter.prev) waiter.prev.next = waiter.next;
    else line.head = waiter.next;
    if (waiter.next) waiter.next.prev = waiter.prev;
    else line.tail = waiter.prev;
    totals.waiting--;
    if (--line.waiting === 0) waitingLines.delete(line);
  }

  /** A holder is done: its share passes to the head of the line as it is, or the key frees one. */
  function giveBack(line: Line) {
    const next = line.head;
    if (next) {
      leave(line, next);
      return next.settle(true);
    }
    totals.holding--;
    // No waiter, so a line nobody holds is idle.
    if (--line.holders === 0 && ++idleLines > IDLE_LINES_KEPT) dropIdleLines();
  }

  function dropIdleLines() {
    for (const [key, line] of lines) if (line.holders === 0) lines.delete(key);
    idleLines = 0;
  }

  function expireWaits() {
    const time = now();
    for (const line of waitingLines) {
      // Deadlines grow along a line (one bound, first come first served): only the head is checked.
      while (line.head && line.head.deadline <= time) {
        const waiter = line.head;
        leave(line, waiter);
        waiter.settle(false);
      }
    }
    if (waitingLines.size === 0 && sweep) {
      clearInterval(sweep);
      sweep = null;
    }
  }

  // A share held at once: its release is the class's, not a closure made for each taker.
  class Held implements Share {
    readonly granted = true;
    #line: Line | null;
    constructor(line: Line) {
      this.#line = line;
    }
    release() {
      const line = this.#line;
      if (!line) return;
      this.#line = null;
      giveBack(line);
    }
  }

  function wait(line: Line): Share {
    // 'waiting' → 'held' (the share passed to it) or 'gone' (refused, or released while waiting).
    let state: 'waiting' | 'held' | 'gone' = 'waiting';
    const waiter: Waiter = { prev: line.tail, next: null, deadline: now() + maxWaitMs, settle: () => {} };
    const granted = new Promise<boolean>((resolve) => {
      waiter.settle = (outcome) => {
        state = outcome ? 'held' : 'gone';
        resolve(outcome);
      };
    });
    if (line.tail) line.tail.next = waiter;
    else line.head = waiter;
    line.tail = waiter;
    totals.waiting++;
    if (line.waiting++ === 0) waitingLines.add(line);
    if (maxWaitMs !== Infinity) sweep ??= setInterval(expireWaits, SWEEP_MS).unref();
    return {
      granted,
      release() {
        if (state === 'waiting') {
          leave(line, waiter);
          waiter.settle(false);
        } else if (state === 'held') {
          state = 'gone';
          giveBack(line);
        }
      },
    };
  }

  return {
    perKey,
    /** A share of `key`: held at once while the key has one free, else a place in its line, else refused. */
    take(key: string): Share {
      let line = lines.get(key);
      if (!line) lines.set(key, (line = { holders: 0, waiting: 0, head: null, tail: null }));
      else if (line.holders === 0) idleLines--;
      if (line.holders < perKey) {
        line.holders++;
        totals.holding++;
        return new Held(line);
      }
      return line.waiting < maxWaiting ? wait(line) : REFUSED;
    },
    /** Shares held and takers waiting, over every key. */
    totals(): Readonly<{ holding: number; waiting: number }> {
      return totals;
    },
    /** Keys with a line: held, waited for, or idle and kept. */
    keys(): number {
      return lines.size;
    },
  };
}

export type KeyedShares = ReturnType<typeof createKeyedShares>;
