// Issue 48: one ingest request took the service down — every parsed line and every problem kept,
// synchronously. Through HTTP: a body of junk lines answers with its first problems and a count,
// other requests are answered while it is validated, and ingests beyond the instance's limit are
// refused before their bodies are read.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { ERROR_BODY_MAX_BYTES } from '../../src/http/responses.js';
import { REPORTED_PROBLEMS } from '../../src/ingest/lines.js';
import { createKeyedWorkspace, createTestApp, json, type TestApp } from '../support/app.js';

const TOKEN = 'b'.repeat(40);
let t: TestApp;
let key: string;

let clientId: string;

beforeAll(async () => {
  t = await createTestApp({ INGEST_TOKEN: TOKEN, INGEST_MAX_CONCURRENT: '1' });
  const keyed = await createKeyedWorkspace(t.database);
  key = keyed.key.secret;
  clientId = (
    await t.database.prisma.client.create({
      data: { id: newId('client'), workspaceId: keyed.workspace.id, name: 'Junk Collector Ltd' },
    })
  ).id;
});
afterAll(() => t.close());

const ingest = (body: BodyInit, kind = 'scans') =>
  t.app.fetch(
    new Request(`http://test.local/internal/ingest/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body,
      duplex: 'half',
    } as RequestInit),
  );

describe('a compressed body', () => {
  it.each(['gzip', 'br', 'GZIP, identity'])(
    'sent with Content-Encoding: %s is refused 415, not read line by line',
    async (coding) => {
      const response = await t.app.fetch(
        new Request('http://test.local/internal/ingest/scans', {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-encoding': coding },
          body: gzipSync('{}\n'),
        }),
      );
      expect([response.status, (await json(response)).error.code]).toEqual([415, 'unsupported_media_type']);
    },
  );
});

describe('a body of junk lines', () => {
  it.each(['scans', 'metrics'])(
    '%s: answers its first problems and counts them all, in a small answer',
    async (kind) => {
      // Junk after a line that names a project is read to the end and counted; a body of nothing but junk is
      // refused at its 10 000th line, with the same first problems.
      const response = await ingest('{}\n'.repeat(100_000), kind);
      const text = await response.text();
      expect(response.status).toBe(400);
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(ERROR_BODY_MAX_BYTES);
      const { error } = JSON.parse(text);
      expect(error.lines.length).toBeGreaterThan(0);
      expect(error.lines.length).toBeLessThanOrEqual(REPORTED_PROBLEMS.count);
      expect(error.lines[0].line).toBe(1);
      expect(error.omitted).toBeGreaterThan(0);
      expect(error.lines.length + error.omitted).toBeLessThan(100_000);
      expect(error.message).toBe(
        'The first 10,000 lines name no project or client of this service; nothing was imported.',
      );
    },
  );

  it('lets another request be answered while it is validated', async () => {
    const order: string[] = [];
    // One chunk: without turns between its slices, it would be validated in one go. Its first line names a client, so
    // the junk after it is read to the end.
    const named = JSON.stringify({
      client: clientId,
      provider: 'google_ads',
      date: '2026-10-01',
      metrics: { clicks: 1 },
    });
    const junk = ingest(Buffer.from(`${named}\n${'{}\n'.repeat(300_000)}`), 'metrics').then(
      (response) => (order.push('ingest'), response),
    );
    const other = t.get('/api/v1/clients', key).then((response) => (order.push('other'), response));
    const [ingested, answered] = await Promise.all([junk, other]);
    expect(ingested.status).toBe(400);
    expect(answered.status).toBe(200);
    expect(order).toEqual(['other', 'ingest']);
  });
});

describe('ingests at once', () => {
  it('past INGEST_MAX_CONCURRENT, one more is 429 with Retry-After before its body is read', async () => {
    let send!: ReadableStreamDefaultController<Uint8Array>;
    const held = new ReadableStream<Uint8Array>({ start: (controller) => void (send = controller) });
    const first = ingest(held);
    send.enqueue(Buffer.from('{}\n'));
    const refused = await ingest('{}');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    expect((await json(refused)).error.code).toBe('rate_limited');
    send.close();
    expect((await first).status).toBe(400);
    expect((await ingest('{}')).status).toBe(400);
  });
});
