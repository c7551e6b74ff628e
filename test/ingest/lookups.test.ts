// What an ingest looks up while it validates a body slice by slice: each project once, found or
// not, however many lines name it (a body naming one made-up id on every line looked it up in
// every slice).
import { describe, expect, it } from 'vitest';
import type pg from 'pg';
import { ingest } from '../../src/ingest/service.js';

describe('looking up the projects a body names', () => {
  it('asks once for a project that does not exist, whatever the number of slices', async () => {
    const asked: string[][] = [];
    const pool = {
      query: async (_sql: string, [ids]: [string[]]) => (asked.push(ids), { rows: [] }),
    } as unknown as pg.Pool;
    const line = JSON.stringify({
      project: 'prj_00000000000000000000',
      date: '2026-10-01',
      model: 'chatgpt',
      locale: 'en-US',
    });
    const summary = await ingest(pool, 'scans', `${line}\n`.repeat(2_000));
    expect(summary.rejected).toBe(2_000);
    expect(summary.problems[0]!.message).toMatch(/unknown project prj_00000000000000000000/);
    expect(asked).toEqual([['prj_00000000000000000000']]);
  });
});
