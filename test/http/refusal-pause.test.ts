// A connection answered 429 with Retry-After is not read again before its wait is over: a client
// that ignores Retry-After gets its next answer late on that connection, while every other
// connection is answered at once.
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createKeyedWorkspace } from '../support/app.js';
import { useListeningApp } from '../support/listen.js';

// A bucket of 2 that refills one token a second: the third request at once is refused for 1 s.
const server = useListeningApp({ RATE_LIMIT_AGENCY: '2/1', REFUSED_CONNECTION_PAUSE_MS: '1000' });

/** A keep-alive connection that sends one request at a time and resolves each answer's status with when it came. */
async function keepAlive(): Promise<{ send(key: string): Promise<{ status: number; at: number }>; socket: Socket }> {
  const { hostname, port } = new URL(server.baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  let buffered = '';
  let waiting: ((answer: { status: number; at: number }) => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    const headEnd = buffered.indexOf('\r\n\r\n');
    const length = /content-length: *(\d+)/i.exec(buffered);
    if (headEnd < 0 || !length || buffered.length < headEnd + 4 + Number(length[1])) return;
    const status = Number(buffered.slice(9, 12));
    buffered = buffered.slice(headEnd + 4 + Number(length[1]));
    waiting?.({ status, at: performance.now() });
  });
  return {
    socket,
    send: (key) =>
      new Promise((resolve) => {
        waiting = resolve;
        socket.write(
          `GET /api/v1/clients HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\n\r\n`,
        );
      }),
  };
}

describe('a connection told to wait', () => {
  it('is not read again until its Retry-After has passed; other connections are answered at once', async () => {
    const { key } = await createKeyedWorkspace(server.t.database);
    const other = await createKeyedWorkspace(server.t.database);
    const flooding = await keepAlive();
    const bystander = await keepAlive();
    try {
      expect((await flooding.send(key.secret)).status).toBe(200);
      expect((await flooding.send(key.secret)).status).toBe(200);
      const refused = await flooding.send(key.secret);
      expect(refused.status).toBe(429);
      // Sent at once, ignoring Retry-After: 1; TCP holds it until the connection is read again.
      const next = flooding.send(key.secret);
      const early = await Promise.race([
        next.then(() => 'answered'),
        new Promise((resolve) => setTimeout(() => resolve('held'), 500)),
      ]);
      expect(early).toBe('held');
      // Meanwhile another connection is served.
      expect((await bystander.send(other.key.secret)).status).toBe(200);
      const answered = await next;
      expect(answered.at - refused.at).toBeGreaterThanOrEqual(900);
      // The wait is over: the held request found a token again.
      expect(answered.status).toBe(200);
    } finally {
      flooding.socket.destroy();
      bystander.socket.destroy();
    }
  });
});
