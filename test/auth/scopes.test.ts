// The scope facts every door asks: what each kind of thing needs, and the one refusal's wording.
import { describe, expect, it } from 'vitest';
import { isWorkspaceAdmin, READ_SCOPE, requireScope, scopeRefusal } from '../../src/auth/scopes.js';
import type { Principal } from '../../src/auth/principal.js';

const base = { credentialId: 'k', workspaceId: 'ws', plan: 'pro', timezone: 'UTC' } as const;
const key: Principal = { ...base, kind: 'api_key', scopes: ['clients:read'] };

describe('scopes', () => {
  it('name the scope each kind of thing needs to be read', () => {
    expect(READ_SCOPE).toEqual({
      client: 'clients:read',
      report: 'reports:read',
      project: 'ai_visibility:read',
      prompt: 'ai_visibility:read',
      scan: 'ai_visibility:read',
      answer: 'ai_visibility:read',
      signal: 'ai_visibility:read',
    });
  });

  it('refuse a credential without the scope, as v1 words it, or naming what was read', () => {
    expect(() => requireScope(key, 'clients:read')).not.toThrow();
    expect(() => requireScope(key, 'reports:read')).toThrow('This API key lacks the reports:read scope.');
    expect(() => requireScope(key, 'reports:read', { reading: 'rep_1' })).toThrow(
      'Reading rep_1 needs the reports:read scope.',
    );
    expect(scopeRefusal('reports:read', { challenge: true })).toMatchObject({
      code: 'insufficient_scope',
      headers: {
        'WWW-Authenticate': 'Bearer realm="signalboard", error="insufficient_scope", scope="reports:read"',
      },
    });
  });

  it('count signed-in owners and admins as admins, never an API key or a member', () => {
    const person = { ...base, scopes: [], userId: 'u', email: 'e' } as const;
    expect(isWorkspaceAdmin(key)).toBe(false);
    expect(isWorkspaceAdmin({ ...person, kind: 'session', role: 'admin' })).toBe(true);
    expect(isWorkspaceAdmin({ ...person, kind: 'session', role: 'member' })).toBe(false);
  });
});
