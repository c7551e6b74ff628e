// bench:abuse's workspace A, in a process of its own (abuse.bench.ts forks it and lowers its CPU
// priority): an attacker's load generator runs on the attacker's machine, not on the service's
// cores, and B's measuring client must not share an event loop with A's thousands of answers a
// second. Told what to send by one IPC message; answers what it got when told to stop.
import net from 'node:net';
import { socketClient } from './harness.js';

export interface AttackPlan {
  baseUrl: string;
  /** Requests as raw HTTP/1.1 bytes (base64), built by the bench. */
  stalled: { name: string; request: string; count: number; readBytes: number }[];
  floods: { name: string; request: string; concurrency: number }[];
}

export interface AttackOutcome {
  stalled: Record<string, { opened: number; firstLines: [string, number][] }>;
  floods: Record<string, [number, number][]>;
}

/** No call may hang the attacker: a request unanswered after this counts as failed (status 0). */
const CALL_TIMEOUT_MS = 30_000;

/**
 * A client that sends its request, reads `readBytes` of the answer and then stops reading, keeping
 * the socket open. A paused socket does not see the server cut it (libuv stops reading), so cuts
 * are read from the service's own counter, not from here.
 */
function stalledReaders(baseUrl: string, request: Buffer, count: number, readBytes: number) {
  const { hostname, port } = new URL(baseUrl);
  let stopped = false;
  const stats = { opened: 0, firstLines: new Map<string, number>() };
  const sockets = new Set<net.Socket>();
  const open = () => {
    if (stopped) return;
    stats.opened++;
    const socket = net.connect(Number(port), hostname);
    sockets.add(socket);
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      if (received === 0) {
        // The status line, and the error code where the answer is one (GraphQL errors come with 200).
        const head = chunk.subarray(0, 4096).toString('latin1');
        const code = /"code":"([a-z_]+)"/.exec(head)?.[1];
        const line = `${head.slice(0, head.indexOf('\r\n'))}${code ? ` (${code})` : ''}`;
        stats.firstLines.set(line, (stats.firstLines.get(line) ?? 0) + 1);
      }
      received += chunk.length;
      if (received >= readBytes) socket.pause();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      // Come back after a breath, as a careless retry loop would.
      if (!stopped) setTimeout(open, 200);
    });
    socket.write(request);
  };
  for (let index = 0; index < count; index++) open();
  return {
    stats,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** A closed loop from `concurrency` callers until stopped; counts answers by status. */
function flood(send: () => Promise<number>, concurrency: number) {
  let stopped = false;
  const statuses = new Map<number, number>();
  const call = () =>
    Promise.race([send(), new Promise<number>((resolve) => setTimeout(() => resolve(0), CALL_TIMEOUT_MS).unref())]);
  const loops = Array.from({ length: concurrency }, async () => {
    while (!stopped) {
      const status = await call().catch(() => 0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  return {
    statuses,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

process.once('message', (plan: AttackPlan) => {
  const client = socketClient(plan.baseUrl);
  const stalled = plan.stalled.map(({ name, request, count, readBytes }) => ({
    name,
    readers: stalledReaders(plan.baseUrl, Buffer.from(request, 'base64'), count, readBytes),
  }));
  const floods = plan.floods.map(({ name, request, concurrency }) => {
    const bytes = Buffer.from(request, 'base64');
    return { name, loop: flood(async () => (await client.send(bytes)).status, concurrency) };
  });
  process.send!('started');
  process.once('message', async () => {
    for (const { readers } of stalled) readers.stop();
    await Promise.all(floods.map(({ loop }) => loop.stop()));
    client.close();
    const outcome: AttackOutcome = {
      stalled: Object.fromEntries(
        stalled.map(({ name, readers }) => [
          name,
          { opened: readers.stats.opened, firstLines: [...readers.stats.firstLines] },
        ]),
      ),
      floods: Object.fromEntries(floods.map(({ name, loop }) => [name, [...loop.statuses]])),
    };
    process.send!(outcome, () => process.exit(0));
  });
});
