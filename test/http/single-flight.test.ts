// Work shared by concurrent callers: one start per key while it runs, nothing kept once settled.
import { describe, expect, it } from 'vitest';
import { singleFlight } from '../../src/http/single-flight.js';

describe('singleFlight', () => {
  it('starts the work once for the callers that ask while it runs, and again once it has settled', async () => {
    const flights = singleFlight<string, number>();
    const finishers: ((value: number) => void)[] = [];
    const start = () => new Promise<number>((resolve) => finishers.push(resolve));
    const together = [flights.run('a', start), flights.run('a', start), flights.run('b', start)];
    expect(finishers).toHaveLength(2);
    finishers.forEach((finish, index) => finish(index));
    expect(await Promise.all(together)).toEqual([0, 0, 1]);
    const later = flights.run('a', start);
    expect(finishers).toHaveLength(3);
    finishers[2]!(2);
    expect(await later).toBe(2);
  });

  it('forgets a failure, whether the work throws at once or fails later', async () => {
    const flights = singleFlight<string, number>();
    await expect(flights.run('a', () => Promise.reject(new Error('later')))).rejects.toThrow('later');
    await expect(
      flights.run('a', () => {
        throw new Error('at once');
      }),
    ).rejects.toThrow('at once');
    expect(await flights.run('a', async () => 3)).toBe(3);
  });

  it('lets callers after forget() start afresh while the earlier work still runs', async () => {
    const flights = singleFlight<string, string>();
    let finish!: (value: string) => void;
    const earlier = flights.run('k', () => new Promise((resolve) => (finish = resolve)));
    flights.forget();
    const afresh = flights.run('k', async () => 'fresh');
    finish('stale');
    expect(await earlier).toBe('stale');
    expect(await afresh).toBe('fresh');
  });
});
