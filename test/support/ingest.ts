// Scans sent to the app the way the scan pipeline sends them: through the ingest door, with its token.
import type { App } from '../../src/app.js';
import { json } from './app.js';

/** A scan's counters that fire no rule against the same counters the day before. */
export const SCAN_COUNTERS = {
  totalRuns: 100,
  visibilityCount: 50,
  mentionCount: 40,
  totalMentionCount: 100,
  positionedCount: 40,
  positionSum: 80,
  positiveCount: 20,
  neutralCount: 10,
  negativeCount: 10,
};

/** POST /internal/ingest/scans with the lines as one JSON body; the answer's JSON. */
export const ingestScans = async (app: App, token: string, lines: object[]) =>
  json(
    await app.fetch(
      new Request('http://test.local/internal/ingest/scans', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify(lines),
      }),
    ),
  );
