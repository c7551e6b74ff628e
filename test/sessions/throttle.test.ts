// Sign-in throttling: the pure verdict over reserved counters, and the limit under concurrency
// through the real app and PostgreSQL (the reservation happens before the password check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { ORIGIN, PASSWORD, personWithPassword } from '../support/web.js';
import { ACCOUNT_LOCK_MS, accountKeyOf, throttleVerdict } from '../../src/sessions/throttle.js';
import { sweepAttemptCounters, type CounterState } from '../../src/db/attempt-counters.js';

const now = new Date('2026-11-23T12:00:00Z');
const windowEnd = new Date('2026-11-23T12:10:00Z');
const state = (count: number, exceededAt: Date | null = null): CounterState => ({
  count,
  windowEndsAt: windowEnd,
  exceededAt,
  justExceeded: false,
});

describe('the throttle verdict', () => {
  it('lets the first five attempts of an account through, then locks the account briefly for everyone', () => {
    expect(throttleVerdict({ account: state(5), accountAddress: state(5), address: state(5) }, now)).toEqual({
      allowed: true,
    });
    const locked = throttleVerdict({ account: state(6, now), accountAddress: state(1), address: state(1) }, now);
    expect(locked).toEqual({ allowed: false, retryAfterSeconds: ACCOUNT_LOCK_MS / 1000, accountLocked: true });
  });

  it('after the short lock, an address that has not failed may try; one that has failed may not', () => {
    const lockedAt = new Date(now.getTime() - ACCOUNT_LOCK_MS - 1000);
    expect(throttleVerdict({ account: state(9, lockedAt), accountAddress: state(1), address: state(1) }, now)).toEqual({
      allowed: true,
    });
    expect(throttleVerdict({ account: state(9, lockedAt), accountAddress: state(2), address: state(2) }, now)).toEqual({
      allowed: false,
      retryAfterSeconds: 600,
      accountLocked: false,
    });
  });

  it('refuses an address over 50 attempts and an account+address pair over 5 until their windows end', () => {
    expect(throttleVerdict({ account: state(1), accountAddress: state(1), address: state(51) }, now)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 600,
    });
    expect(throttleVerdict({ account: state(1), accountAddress: state(6), address: state(6) }, now)).toMatchObject({
      allowed: false,
      retryAfterSeconds: 600,
    });
  });
});

describe('sign-in under concurrency', () => {
  let t: TestApp;
  let workspaceId: string;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'true' });
    workspaceId = (await createKeyedWorkspace(t.database)).workspace.id;
  });
  afterAll(() => t.close());

  const attempt = (email: string, password: string, address: string) =>
    t.app.fetch(
      new Request(`${ORIGIN}/app/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': address },
        body: JSON.stringify({ email, password }),
      }),
      { remoteAddress: '10.0.0.1' },
    );

  async function parallelWrongPasswords(email: string, addressOf: (index: number) => string) {
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        attempt(email, `wrong password ${index}`, addressOf(index)).then((response) => response.status),
      ),
    );
    return {
      checked: statuses.filter((status) => status === 401).length,
      refused: statuses.filter((status) => status === 429).length,
    };
  }

  it(
    '60 parallel wrong passwords from one address: at most 5 are checked, then the ' +
      'right password is refused during the lock',
    async () => {
      const person = await personWithPassword(t.database, {
        email: `parallel-one-${Date.now()}@example.test`,
        workspaceId,
      });
      const { checked, refused } = await parallelWrongPasswords(person.email, () => '198.51.100.20');
      expect(checked).toBe(5);
      expect(refused).toBe(55);
      expect((await attempt(person.email, PASSWORD, '198.51.100.20')).status).toBe(429);
      // Audited after the answer.
      await expect
        .poll(() =>
          t.database.prisma.auditLogEntry.count({
            where: { workspaceId, action: 'session.account_locked', actor: person.id },
          }),
        )
        .toBe(1);
    },
  );

  it(
    'from 60 addresses: at most 5 checked; during the lock even a clean address is ' +
      'refused; after it, a clean address gets in and a failed one does not',
    async () => {
      const person = await personWithPassword(t.database, {
        email: `parallel-many-${Date.now()}@example.test`,
        workspaceId,
      });
      const { checked } = await parallelWrongPasswords(person.email, (index) => `203.0.113.${index + 1}`);
      expect(checked).toBe(5);
      expect((await attempt(person.email, PASSWORD, '192.0.2.200')).status).toBe(429);
      // The short lock passes (moved into the past rather than waited for).
      await t.database.pool.query(
        "UPDATE attempt_counters SET exceeded_at = now() - interval '6 minutes' WHERE key = $1",
        [accountKeyOf(person.email)],
      );
      const failedAddresses = await t.database.pool.query<{ key: string }>(
        'SELECT key FROM attempt_counters WHERE key LIKE $1 AND count > 0 LIMIT 1',
        [`signin:account-address:${person.email}|%`],
      );
      const failedAddress = failedAddresses.rows[0]!.key.split('|')[1]!;
      expect((await attempt(person.email, PASSWORD, failedAddress)).status).toBe(429);
      expect((await attempt(person.email, PASSWORD, '192.0.2.201')).status).toBe(200);
    },
  );
});

describe('attempt counters', () => {
  it('sweep the windows that have passed and keep the live ones', async () => {
    const t = await createTestApp();
    try {
      await t.database.pool.query(
        `INSERT INTO attempt_counters (key, count, limit_count, window_ends_at)
         VALUES ('old', 3, 5, now() - interval '1 minute'), ('live', 3, 5, now() + interval '1 minute')`,
      );
      expect(await sweepAttemptCounters(t.database.pool)).toBe(1);
      expect((await t.database.pool.query('SELECT key FROM attempt_counters')).rows.map((row) => row.key)).toEqual([
        'live',
      ]);
    } finally {
      await t.close();
    }
  });
});
