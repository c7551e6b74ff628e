// A body past the ingest limit sent in chunks: the door refuses it (413) and stops reading, and the
// server drains or cuts the rest without ever touching a request whose socket is gone. A timer that
// did so threw in the server's process two seconds later, taking every tenant's requests with it.
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';
import { createKeyedWorkspace } from '../support/app.js';
import { newId } from '../../src/db/ids.js';

const TOKEN = 'ingest_token_for_the_oversized_body_test_0123456789';
const server = useListeningApp({ INGEST_TOKEN: TOKEN });

/**
 * POSTs a line naming `clientId` and then `megabytes` of NDJSON in 1 MiB chunks, and resolves with the status the
 * server answered (a body whose lines name nothing is refused at its 10 000th line, long before the limit).
 */
function sendChunked(path: string, megabytes: number, clientId: string): Promise<number> {
  const named = `${JSON.stringify({ client: clientId, provider: 'google_ads', date: '2026-10-01', metrics: {} })}\n`;
  const chunk = Buffer.alloc(1024 * 1024, '{"a":1}\n');
  return new Promise((resolve, reject) => {
    const outgoing = request(`${server.baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/x-ndjson' },
    });
    outgoing.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    // The server closes the connection after its answer; what is still being written then fails.
    outgoing.on('error', () => {});
    outgoing.write(named);
    let sent = 0;
    const writeMore = () => {
      while (sent < megabytes) {
        sent++;
        if (!outgoing.write(chunk)) return void outgoing.once('drain', writeMore);
      }
      outgoing.end();
    };
    writeMore();
    setTimeout(() => reject(new Error('no answer')), 60_000).unref();
  });
}

describe('a chunked ingest body past the limit', () => {
  it('is refused with 413 and the server keeps serving after the drain window', async () => {
    const { workspace } = await createKeyedWorkspace(server.t.database);
    const client = await server.t.database.prisma.client.create({
      data: { id: newId('client'), workspaceId: workspace.id, name: 'Oversized Ltd' },
    });
    expect(await sendChunked('/internal/ingest/metrics', 70, client.id)).toBe(413);
    // Past the 2 s drain window, where the old timer fired on a request without a socket.
    await sleep(3_000);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  }, 90_000);
});
