// /healthz and /readyz are read by probes: GET and HEAD. Any other method is 405 with Allow in the
// error envelope (it was answered like a GET).
import { describe, expect, it } from 'vitest';
import { useListeningApp } from '../support/listen.js';

const served = useListeningApp();

describe.each(['/healthz', '/readyz'])('%s', (path) => {
  it('answers GET with its report and HEAD with its status alone', async () => {
    const get = await fetch(`${served.baseUrl}${path}`);
    expect(get.status).toBe(200);
    expect((await get.json()).status).toMatch(/^(ok|ready)$/);
    const head = await fetch(`${served.baseUrl}${path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    'refuses %s with 405, Allow and the envelope',
    async (method) => {
      const response = await fetch(`${served.baseUrl}${path}`, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect((await response.json()).error).toMatchObject({
        code: 'method_not_allowed',
        requestId: expect.any(String),
      });
    },
  );
});
