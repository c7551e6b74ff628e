import { describe, expect, it } from 'vitest';
import { tenantStatement, UnboundStatement } from '../../src/db/tenant-sql.js';

describe('tenant statements', () => {
  it('render the workspace binding where the statement asks for it', () => {
    expect(
      tenantStatement(null, (workspace) => `SELECT 1 FROM clients c WHERE ${workspace('c')} AND id = $2`).text,
    ).toBe('SELECT 1 FROM clients c WHERE c.workspace_id = $1 AND id = $2');
    expect(tenantStatement(null, (workspace) => `SELECT 1 FROM clients WHERE ${workspace()}`).text).toBe(
      'SELECT 1 FROM clients WHERE workspace_id = $1',
    );
    expect(
      tenantStatement(null, (workspace) => `SELECT slug FROM workspaces WHERE ${workspace('workspaces')}`).text,
    ).toBe('SELECT slug FROM workspaces WHERE id = $1');
  });

  it('cannot be declared without the binding', () => {
    expect(() => tenantStatement('test.unbound', () => 'SELECT * FROM clients WHERE id = $2')).toThrow(
      UnboundStatement,
    );
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
});
