// Which non-reading responses are cut when they hold too much (the budgets of http/stall-watch.ts):
// the pure choice; test/rest/export-fair-share.test.ts cuts real unread answers through a server.
import { describe, expect, it } from 'vitest';
import { responsesToCut } from '../../src/http/stall-watch.js';

const MB = 1024 * 1024;
const budgets = { unsentMaxBytes: 20 * MB, unsentWorkspaceMaxBytes: 12 * MB };

describe('responsesToCut', () => {
  it('cuts nothing while every workspace and the instance are within their bounds', () => {
    expect(
      responsesToCut(
        [
          { response: 'a1', workspaceId: 'a', unsent: 12 * MB },
          { response: 'b1', workspaceId: 'b', unsent: 8 * MB },
        ],
        budgets,
      ),
    ).toEqual([]);
  });

  it("cuts a workspace's largest responses until it holds no more than its own bound", () => {
    const stalled = [
      { response: 'a-small', workspaceId: 'a', unsent: 2 * MB },
      { response: 'a-large', workspaceId: 'a', unsent: 8 * MB },
      { response: 'a-mid', workspaceId: 'a', unsent: 5 * MB },
    ];
    expect(responsesToCut(stalled, budgets)).toEqual(['a-large']);
  });

  it("over the instance's bound, takes from the workspace holding the most, not the largest response", () => {
    // A holds 3 × 4 MB (12, its bound), B one 10 MB answer: 22 MB together. Largest-first would cut
    // B's only answer; the tenant holding the most gives up its largest instead.
    const stalled = [
      { response: 'a1', workspaceId: 'a', unsent: 4 * MB },
      { response: 'a2', workspaceId: 'a', unsent: 4 * MB },
      { response: 'a3', workspaceId: 'a', unsent: 4 * MB },
      { response: 'b1', workspaceId: 'b', unsent: 10 * MB },
    ];
    expect(responsesToCut(stalled, budgets)).toEqual(['a1']);
  });

  it('counts responses nobody was admitted for each on its own', () => {
    const stalled = [
      { response: 'page1', workspaceId: null, unsent: 7 * MB },
      { response: 'page2', workspaceId: null, unsent: 7 * MB },
      { response: 'b1', workspaceId: 'b', unsent: 9 * MB },
    ];
    // Neither anonymous response passes the workspace bound alone; together 23 MB > 20: the holder
    // of the most (b, 9) goes.
    expect(responsesToCut(stalled, budgets)).toEqual(['b1']);
  });
});
