// Work that concurrent requests share: the first caller for a key starts it, callers that arrive
// while it runs get the same promise, and it is forgotten once settled, so a failure is not kept
// (the next caller starts again). Used where a burst of 50 connections otherwise did the same
// work 50 times at once: computing a cached body, compressing it, looking up an API key.
export function singleFlight<K, V>() {
  const running = new Map<K, Promise<V>>();
  return {
    run(key: K, start: () => Promise<V>): Promise<V> {
      const current = running.get(key);
      if (current) return current;
      // Inside an async function, a `start` that throws at once rejects like one that fails later.
      const started = (async () => start())();
      running.set(key, started);
      const leave = () => void (running.get(key) === started && running.delete(key));
      started.then(leave, leave);
      return started;
    },
    /** Callers from now on start afresh: what runs now may have read what an invalidation changed. */
    forget(): void {
      running.clear();
    },
  };
}
