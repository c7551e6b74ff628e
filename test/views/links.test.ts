// The header's Views menu holds names tenants choose: each is escaped and isolated in its own
// <bdi>, so a right-to-left override in one name cannot reverse the links beside it.
import { describe, expect, it } from 'vitest';
import { viewsMenu } from '../../src/views/links.js';

describe('the Views menu', () => {
  it('isolates every report and project name, escaped, in a bdi of its own', () => {
    const menu = viewsMenu({
      reports: [{ id: 'rep_A', name: '\u202Eevil <b>' }],
      projects: [{ id: 'prj_B', name: '\u202Eproject' }],
    }).value;
    expect(menu).toContain('<bdi>\u202Eevil &lt;b&gt;</bdi></a>');
    expect(menu).toContain('<bdi>\u202Eproject</bdi></a> · <a');
    expect(menu.match(/<bdi>/g)).toHaveLength(2);
  });
});
