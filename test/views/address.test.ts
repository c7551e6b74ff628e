// A view's arguments as its web page's query string and back (web/views/shared/address.ts).
import { describe, expect, it } from 'vitest';
import { argsOfQuery, dataArgs, queryOf, sameData } from '../../web/views/shared/address.js';

describe('a view\'s address', () => {
  it('writes every argument but those the path names, a list as repeated keys, and reads them back', () => {
    const args = { id: 'prj_1', promptId: 'pmt 2', cursor: 'a/b+c=', before: ['', 'x'], locale: undefined };
    const query = queryOf(args, { id: 'prj_1' });
    expect(query).toBe('?promptId=pmt+2&cursor=a%2Fb%2Bc%3D&before=&before=x');
    expect(argsOfQuery(query)).toEqual({ promptId: 'pmt 2', cursor: 'a/b+c=', before: ['', 'x'] });
    expect(queryOf({ id: 'rep_1' }, { id: 'rep_1' })).toBe('');
  });

  it('tells the arguments a view keeps to itself from those its data are read with', () => {
    expect(sameData({ id: 'p', locale: 'en-US' }, { id: 'p', locale: 'de-DE' }, ['locale'])).toBe(true);
    expect(sameData({ id: 'p', dateFrom: '2026-01-01' }, { id: 'p' }, ['locale'])).toBe(false);
    expect(dataArgs({ id: 'p', cursor: 'c', before: [''] }, ['before'])).toEqual({ id: 'p', cursor: 'c' });
  });
});
