// Our signatures against the reference implementation of Standard Webhooks.
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateSecret, signatureHeader, webhookHeaders } from '../../src/webhooks/signing.js';

describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({
    type: 'scan.completed',
    timestamp: '2026-11-22T10:00:00.000Z',
    data: { scanId: 'scn_1' },
  });

  it('verifies with the standardwebhooks package and equals its own signature', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], 'evt_1', now, body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('evt_1', new Date(now * 1000), body));
  });

  it('carries one signature per secret during rotation, each verifying alone', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([current, previous], 'evt_2', now, body);
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow();
  });

  it('fails verification when the body, id or timestamp changes', () => {
    const secret = generateSecret();
    const now = Math.floor(Date.now() / 1000);
    const headers = webhookHeaders([secret], 'evt_3', now, body);
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_4' })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(now + 1) })).toThrow();
    expect(signatureHeader([secret], 'evt_3', now, body)).toBe(headers['webhook-signature']);
  });
});
