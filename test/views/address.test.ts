// A view's arguments as its web page's query string and back (web/views/common/address.ts).
import { describe, expect, it } from 'vitest';
import {
  argsOfQuery,
  dataArgs,
  differing,
  queryOf,
  refusedArguments,
  sameData,
  withoutRefused,
} from '../../web/views/common/address.js';

describe("a view's address", () => {
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

  it('leaves out what the server refused: the argument it names, both ends of a range', () => {
    const asked = { id: 'p', promptId: 'pmt', dateFrom: '2020-01-01', dateTo: '2026-11-20', locale: 'de-DE' };
    expect(withoutRefused(asked, ['dateFrom'], ['id', 'locale'])).toEqual({
      args: { id: 'p', promptId: 'pmt', locale: 'de-DE' },
      dropped: { dateFrom: '2020-01-01', dateTo: '2026-11-20' },
    });
    expect(withoutRefused({ id: 'r', datePreset: 'bogus', comparePreset: 'none' }, ['datePreset'], ['id'])).toEqual({
      args: { id: 'r', comparePreset: 'none' },
      dropped: { datePreset: 'bogus' },
    });
  });

  it('leaves out all but the kept arguments when the refusal names none of those asked', () => {
    expect(withoutRefused({ id: 'p', cursor: 'c', before: [''] }, [], ['id', 'before'])).toEqual({
      args: { id: 'p', before: [''] },
      dropped: { cursor: 'c' },
    });
    expect(withoutRefused({ id: 'p' }, ['id'], ['id'])).toEqual({ args: { id: 'p' }, dropped: {} });
  });

  it('reads the refused arguments from GraphQL errors: a param, or a variable that could not be read', () => {
    expect(
      refusedArguments([
        { message: 'Variable "$datePreset" got invalid value "bogus"; Value "bogus" does not exist in "DatePreset".' },
        { message: 'dateFrom (2020-01-01) to dateTo (2026-11-27) spans 2523 days', extensions: { param: 'dateFrom' } },
        { message: 'Something else.' },
      ]),
    ).toEqual(['datePreset', 'dateFrom']);
  });

  it('tells which arguments another set has not, or has otherwise', () => {
    expect(differing({ id: 'p', locale: 'xx', before: ['a'] }, { id: 'p', before: ['a'] })).toEqual({ locale: 'xx' });
  });
});
