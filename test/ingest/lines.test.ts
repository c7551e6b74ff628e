// A file's lines are judged one by one (schema, then the line's own rules) and a line that
// repeats an earlier one's identity is refused with the earlier line's number.
import { describe, expect, it } from 'vitest';
import { validateMetricLines } from '../../src/ingest/metric-facts.js';

const client = 'cli_00000000000000000001';
const fact = (date: string, metrics: Record<string, number> = { sessions: 3 }) => ({
  client,
  provider: 'google_analytics',
  date,
  metrics,
});
const parsed = (values: unknown[]) => values.map((value, index) => ({ line: index + 1, value }));

describe('validating metric lines', () => {
  it(
    'accepts good lines and reports each bad one with all ' + 'its problems, a repeated fact by the line it repeats',
    () => {
      const { facts, problems } = validateMetricLines(
        parsed([
          fact('2026-11-01'),
          { ...fact('2026-11-02'), extra: 1 },
          fact('2026-11-01', {}),
          fact('2026-11-03'),
          { ...fact('2026-11-04'), client: 'cli_00000000000000000002' },
        ]),
        new Set([client]),
      );
      expect(facts.map((accepted) => accepted.date)).toEqual(['2026-11-01', '2026-11-03']);
      expect(problems).toEqual([
        { line: 2, message: expect.stringMatching(/extra/) },
        { line: 3, message: 'metrics is empty; same fact as line 1' },
        { line: 5, message: 'unknown client cli_00000000000000000002' },
      ]);
    },
  );
});
