// A batch is counted on its bytes, before it is decoded and parsed: the count is the array's
// length for any JSON, whatever its strings hold, and null for a body that is not an array.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchLength, MCP_LIMITS, readMessage } from '../../src/mcp/protocol/messages.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('batchLength', () => {
  it('is the length of any JSON array, spaced or not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 30 }),
        fc.boolean(),
        (array, spaced) =>
          batchLength(bytes(spaced ? ` ${JSON.stringify(array, null, 2)}\n` : JSON.stringify(array))) === array.length,
      ),
      { numRuns: 1_000 },
    );
  });

  it('counts nothing inside strings, escaped quotes included', () => {
    expect(batchLength(bytes('[{"a":"x,y\\",]"},{"b":[1,2,{"c":"],["}]}]'))).toBe(2);
  });

  it('is null for a body that is not an array', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((value) => !Array.isArray(value)),
        (value) => batchLength(bytes(JSON.stringify(value))) === null,
      ),
    );
    expect(batchLength(bytes('not json'))).toBeNull();
  });
});

describe('readMessage', () => {
  const read = (message: unknown) => readMessage(bytes(JSON.stringify(message)).buffer as ArrayBuffer, new Headers());
  it('refuses a string id longer than every answer should echo, alone or in a batch', async () => {
    const long = 'x'.repeat(MCP_LIMITS.idCharacters + 1);
    for (const message of [
      { jsonrpc: '2.0', id: long, method: 'ping' },
      [{ jsonrpc: '2.0', id: long, method: 'ping' }],
    ]) {
      const refused = read(message) as Response;
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ id: null, error: { code: -32600 } });
    }
    expect(read({ jsonrpc: '2.0', id: 'x'.repeat(MCP_LIMITS.idCharacters), method: 'ping' })).toHaveProperty(
      'parsedBody',
    );
    expect(read({ jsonrpc: '2.0', id: 2 ** 53, method: 'ping' })).toHaveProperty('parsedBody');
  });
});
