// The pure rules of toolsets and consent: which scopes a URL asks for, what a token's scopes
// allow, and that a selection never reaches past its consent.
import { describe, expect, it } from 'vitest';
import {
  consentOf,
  DEFAULT_TOOLSETS,
  explicitScopes,
  RESOURCE_SCOPES,
  scopesFor,
  toolSelectionOf,
  TOOLSETS,
  withinConsent,
} from '../../src/mcp/tools/toolsets.js';

const selection = (subPath: string) => toolSelectionOf(subPath, new Headers())!;

describe('scopes and consent', () => {
  it('a URL asks for its toolsets, and for writes unless read-only', () => {
    expect(scopesFor(selection('/x/answers,reports'))).toEqual(['mcp', 'mcp:reports', 'mcp:answers', 'mcp:write']);
    expect(scopesFor(selection('/x/answers/readonly'))).toEqual(['mcp', 'mcp:answers']);
    expect(scopesFor(selection('/x/all'))).toEqual(RESOURCE_SCOPES);
  });

  it('a plain mcp request is spelled out as the default toolsets with writes; explicit ones stay', () => {
    expect(explicitScopes('mcp offline_access')).toBe(
      `mcp offline_access ${DEFAULT_TOOLSETS.map((toolset) => `mcp:${toolset}`).join(' ')} mcp:write`,
    );
    expect(explicitScopes('mcp mcp:answers')).toBe('mcp mcp:answers');
    expect(explicitScopes('openid')).toBe('openid');
  });

  it('what scopes grant: named toolsets only; a plain mcp token the defaults with writes', () => {
    expect(consentOf(['mcp', 'mcp:answers'])).toEqual({ toolsets: new Set(['answers']), writes: false });
    expect(consentOf(['mcp', 'mcp:write'])).toEqual({ toolsets: new Set(), writes: true });
    expect(consentOf(['mcp'])).toEqual({ toolsets: new Set(DEFAULT_TOOLSETS), writes: true });
    expect(consentOf([])).toEqual({ toolsets: new Set(DEFAULT_TOOLSETS), writes: false });
  });

  it('a selection within a consent never reaches past either', () => {
    for (const subPath of ['', '/readonly', '/x/all', '/x/answers,admin', '/x/reports/readonly']) {
      for (const scopes of [['mcp', 'mcp:reports'], ['mcp', 'mcp:admin', 'mcp:write'], ['mcp']]) {
        const chosen = selection(subPath);
        const consent = consentOf(scopes);
        const allowed = withinConsent(chosen, consent);
        for (const toolset of TOOLSETS)
          expect(allowed.toolsets.has(toolset)).toBe(chosen.toolsets.has(toolset) && consent.toolsets.has(toolset));
        expect(allowed.readonly).toBe(chosen.readonly || !consent.writes);
      }
    }
  });
});
