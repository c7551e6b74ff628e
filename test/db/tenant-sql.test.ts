import { describe, expect, it } from 'vitest';
import { tenantStatement, UnboundStatement } from '../../src/db/tenant-sql.js';
import type { WorkspaceScope } from '../../src/db/workspace-scope.js';

describe('tenant statements', () => {
  it('render the workspace binding where the statement asks for it', () => {
    expect(
      tenantStatement<unknown, { id: string }>(
        null,
        (workspace, param) => `SELECT 1 FROM clients c WHERE ${workspace('c')} AND id = ${param('id')}`,
      ).text,
    ).toBe('SELECT 1 FROM clients c WHERE c.workspace_id = $1 AND id = $2');
    expect(tenantStatement(null, (workspace) => `SELECT 1 FROM clients WHERE ${workspace()}`).text).toBe(
      'SELECT 1 FROM clients WHERE workspace_id = $1',
    );
    expect(
      tenantStatement(null, (workspace) => `SELECT slug FROM workspaces WHERE ${workspace('workspaces')}`).text,
    ).toBe('SELECT slug FROM workspaces WHERE id = $1');
  });

  it('cannot be declared without the binding', () => {
    expect(() =>
      tenantStatement<unknown, { id: string }>(
        'test.unbound',
        (_, param) => `SELECT * FROM clients WHERE id = ${param('id')}`,
      ),
    ).toThrow(UnboundStatement);
    // A text that merely looks bound is not: only the binding the builder hands out counts.
    expect(() => tenantStatement(null, () => 'SELECT * FROM clients WHERE workspace_id = $1')).toThrow(/not bound/);
  });

  it('keep a name for one text only, and derive it from the text when asked', () => {
    tenantStatement('test.once', (workspace) => `SELECT 1 FROM clients WHERE ${workspace()}`);
    expect(() =>
      tenantStatement('test.once', (workspace) => `SELECT 1 FROM clients WHERE ${workspace()}`),
    ).not.toThrow();
    expect(() => tenantStatement('test.once', (workspace) => `SELECT 2 FROM clients WHERE ${workspace()}`)).toThrow(
      /declared twice/,
    );
    expect(
      tenantStatement(
        (text) => `n:${text.length}`,
        (workspace) => `SELECT ${workspace()}`,
      ).name,
    ).toBe('n:24');
  });

  it('compile named parameters once, at declaration: $2 … in order of first use, a name used twice is one $n', () => {
    const statement = tenantStatement<{ id: string }, { clientId: string | null; take: number }>(
      'test.named',
      (workspace, param) =>
        `SELECT id FROM reports WHERE ${workspace()} AND (${param('clientId')}::text IS NULL ` +
        `OR client_id = ${param('clientId')}) LIMIT ${param('take')}`,
    );
    expect(statement.text).toBe(
      'SELECT id FROM reports WHERE workspace_id = $1 AND ($2::text IS NULL OR client_id = $2) LIMIT $3',
    );
    expect(statement.params).toEqual(['clientId', 'take']);
    // A statement that takes no values has no names, and is called without values.
    expect(tenantStatement(null, (workspace) => `SELECT 1 FROM clients WHERE ${workspace()}`).params).toBe(null);
  });

  it('refuse, at compile time, a parameter the statement does not declare and values of the wrong shape', () => {
    const scope = { rows: async () => [] } as unknown as WorkspaceScope;
    const named = tenantStatement<{ n: number }, { take: number }>(
      'test.typed',
      (workspace, param) => `SELECT 1 AS n FROM clients WHERE ${workspace()} LIMIT ${param('take')}`,
    );
    tenantStatement<{ n: number }, { take: number }>(
      null,
      // @ts-expect-error: 'skip' is not one of the statement's parameters
      (workspace, param) => `SELECT 1 AS n FROM clients WHERE ${workspace()} OFFSET ${param('skip')}`,
    );
    void scope.rows(named, { take: 1 });
    // @ts-expect-error: a named statement takes its values by name, not by position
    void scope.rows(named, [1]);
    // @ts-expect-error: and all of them
    void scope.rows(named);
    const none = tenantStatement<{ n: number }>(null, (workspace) => `SELECT 1 AS n FROM clients WHERE ${workspace()}`);
    void scope.rows(none);
    // @ts-expect-error: nor values by position where a statement takes none
    void scope.rows(none, ['x']);
  });
});
