// Scans and metric facts sent to the app the way the pipelines send them: through the ingest door, with its token.
import type { App } from '../../src/app.js';
import { json } from './app.js';

export { SCAN_COUNTERS } from './scan-lines.js';

const ingestOf =
  (kind: 'scans' | 'metrics') =>
  /** POST /internal/ingest/<kind> with the lines as one JSON body; the answer's JSON. */
  async (app: App, token: string, lines: object[]) =>
    json(
      await app.fetch(
        new Request(`http://test.local/internal/ingest/${kind}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: JSON.stringify(lines),
        }),
      ),
    );

export const ingestScans = ingestOf('scans');
export const ingestMetricFacts = ingestOf('metrics');
