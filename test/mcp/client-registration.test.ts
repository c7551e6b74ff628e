import { describe, expect, it } from 'vitest';
import {
  redirectUriProblem,
  registrableMetadata,
  registrationProblem,
} from '../../src/mcp/oauth/client-registration.js';

describe('registration limits', () => {
  it('redirect URIs: https anywhere, http on loopback only, no fragments or credentials', () => {
    for (const uri of ['https://app.example/cb', 'http://127.0.0.1:1234/cb', 'http://[::1]/cb', 'http://localhost:9/x'])
      expect(redirectUriProblem(uri), uri).toBeNull();
    for (const uri of [
      'http://app.example/cb',
      'http://127.0.0.2/cb',
      'https://app.example/cb#x',
      'https://u:p@app.example/',
      'javascript:alert(1)',
      'not a url',
      42,
    ])
      expect(redirectUriProblem(uri), String(uri)).not.toBeNull();
  });

  it('whole requests: 1 to 5 URIs, names up to 100 characters, the code flow only', () => {
    expect(
      registrationProblem({
        redirect_uris: ['https://a.example/cb'],
        client_name: 'x'.repeat(100),
        response_types: ['code'],
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    ).toBeNull();
    expect(registrationProblem({ redirect_uris: [] })?.error).toBe('invalid_redirect_uri');
    expect(registrationProblem({ redirect_uris: Array(6).fill('https://a.example/cb') })?.error).toBe(
      'invalid_redirect_uri',
    );
    expect(registrationProblem({ redirect_uris: ['https://a.example/cb'], client_name: 'x'.repeat(101) })?.error).toBe(
      'invalid_client_metadata',
    );
    expect(
      registrationProblem({ redirect_uris: ['https://a.example/cb'], response_types: ['code', 'id_token'] })?.error,
    ).toBe('invalid_client_metadata');
    expect(registrationProblem({ redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] })?.error).toBe(
      'invalid_client_metadata',
    );
    expect(registrationProblem([])?.error).toBe('invalid_client_metadata');
  });

  it('registers a client without the resource-only scopes it asked for (the consent grants those)', () => {
    expect(registrableMetadata({ client_name: 'a', scope: 'mcp mcp:reports mcp:write offline_access' })).toEqual({
      client_name: 'a',
      scope: 'mcp offline_access',
    });
    expect(registrableMetadata({ client_name: 'a', scope: 'mcp:reports' })).toEqual({ client_name: 'a' });
    expect(registrableMetadata({ client_name: 'a' })).toEqual({ client_name: 'a' });
  });
});
