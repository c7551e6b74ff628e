// A body is read at the network's pace whatever its consumer's: ingest validates as it reads, and a
// body held back by a slow consumer ran into the request timeout (408) before it had all arrived.
import { describe, expect, it } from 'vitest';
import { readAhead } from '../../src/http/body.js';

/** Three chunks; `ended` settles once the last has been read from the source. */
function source(failAtEnd = false) {
  let ended!: () => void;
  const endedPromise = new Promise<void>((resolve) => (ended = resolve));
  async function* chunks() {
    for (const text of ['a', 'b', 'c']) yield Buffer.from(text);
    ended();
    if (failAtEnd) throw new Error('too large');
  }
  return { chunks: chunks(), ended: endedPromise };
}

describe('reading a body ahead of its consumer', () => {
  it(
    'reads the source to its end while the consumer holds ' + 'the first chunk, then hands on the rest in order',
    async () => {
      const { chunks, ended } = source();
      const ahead = readAhead(chunks);
      const first = await ahead.next();
      expect(String(first.value)).toBe('a');
      await ended;
      const rest: string[] = [];
      for await (const chunk of ahead) rest.push(String(chunk));
      expect(rest).toEqual(['b', 'c']);
    },
  );

  it('throws a failure of the source at the next take, before the chunks still queued', async () => {
    const { chunks, ended } = source(true);
    const ahead = readAhead(chunks);
    await ahead.next();
    await ended;
    // The source's throw reaches the reader within the microtasks that follow: one turn settles them.
    await new Promise((resolve) => setImmediate(resolve));
    await expect(ahead.next()).rejects.toThrow('too large');
  });
});
