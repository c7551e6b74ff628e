// Scans sent to the app the way the scan pipeline sends them: through the ingest door, with its token.
import type { App } from '../../src/app.js';
import { json } from './app.js';

export { SCAN_COUNTERS } from './scan-lines.js';

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
