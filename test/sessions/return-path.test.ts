// A shared link opened while signed out: the sign-in keeps where it came from and returns there,
// with the link's query, and never to another site however the address is dressed up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { ORIGIN, PASSWORD, seededOwner, sessionCookieOf } from '../support/web.js';

let t: TestApp;
let email = '';
let reportId = '';
beforeAll(async () => {
  t = await createTestApp();
  ({ ownerEmail: email, reportId } = await seededOwner(t));
}, 120_000);
afterAll(() => t?.close());

const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';

/** The sign-in form as a browser posts it, with whatever `next` the page held. */
const postForm = (next: string | null, password = PASSWORD) => {
  const form = new URLSearchParams({ email, password });
  if (next !== null) form.set('next', next);
  const headers = { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, accept: BROWSER };
  return t.app.fetch(new Request(`${ORIGIN}/app/login`, { method: 'POST', headers, body: form }));
};
const HIDDEN_NEXT = /<input type="hidden" name="next" value="([^"]*)">/g;
const hiddenNexts = (page: string) =>
  [...page.matchAll(HIDDEN_NEXT)].map((match) => match[1]!.replaceAll('&amp;', '&'));
const browse = (path: string) => t.get(path, undefined, { headers: { accept: BROWSER } });

describe('signing in from a shared link', () => {
  it('goes to sign-in with the link as `next`, and lands back on it, query and all', async () => {
    const shared = `/app/reports/${reportId}?preset=last_7_days&compare=previous_year&page=2`;
    const bounced = await browse(shared);
    expect(bounced.status).toBe(303);
    const location = new URL(bounced.headers.get('location')!, ORIGIN);
    expect(location.pathname).toBe('/app/login');
    expect(location.searchParams.get('next')).toBe(shared);

    // Both ways in carry it: the password form and single sign-on.
    const page = await (await browse(`${location.pathname}${location.search}`)).text();
    expect(hiddenNexts(page)).toEqual([shared, shared]);

    const signedIn = await postForm(shared);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(shared);
    const view = await t.get(shared, undefined, { headers: { accept: BROWSER, cookie: sessionCookieOf(signedIn)! } });
    expect(view.status).toBe(200);
  });

  it('keeps `next` through a failed attempt', async () => {
    const shared = `/app/reports/${reportId}?preset=last_30_days`;
    const failed = await postForm(shared, 'not the password at all');
    expect(failed.status).toBe(401);
    expect(hiddenNexts(await failed.text())).toEqual([shared, shared]);
  });

  it('without `next` lands on settings, as before', async () => {
    expect((await postForm(null)).headers.get('location')).toBe('/app/settings');
  });

  it('refuses every address that is not a page of ours, and lands on settings instead', async () => {
    const hostile = [
      '//evil.example/app/',
      '/\\evil.example/app/',
      '/\\/evil.example',
      'https://evil.example/app/settings',
      'http:/evil.example/app/',
      'javascript:alert(1)',
      '/%2F%2Fevil.example/app/',
      '/%5Cevil.example/app/',
      '/%2f/evil.example',
      '%2F%2Fevil.example',
      '/app/\r\nSet-Cookie: x=1',
      '/app/%0d%0aLocation:%20https://evil.example',
      '/app/\tx',
      '/app/../oauth/token',
      '/app/%2e%2e/api/v1/keys',
      '/api/v1/clients',
      '/graphql?query={viewer{scopes}}',
      '/app/reports/x?q=ü',
      `/app/reports/${'a'.repeat(2100)}`,
      '',
      ' /app/settings',
      // Steps of signing in are no pages to return to: another identity's sign-in started from
      // this origin (login CSRF), a sign-out, the sign-in form again.
      '/app/sso/start?email=x%40evil-corp.test&next=%2Fapp%2Fsettings',
      '/app/sso/callback?code=x&state=y',
      '/app/logout',
      '/app/login?next=%2Fapp%2Fsettings',
      '/app/session',
      '/app/settings/api-keys',
    ];
    for (const next of hostile) {
      const response = await postForm(next);
      expect(response.status, JSON.stringify(next)).toBe(303);
      expect(response.headers.get('location'), JSON.stringify(next)).toBe('/app/settings');
      const page = await browse(`/app/login?next=${encodeURIComponent(next)}`);
      expect(hiddenNexts(await page.text()), JSON.stringify(next)).toEqual([]);
    }
  });

  it('takes every kind of page a person is sent to sign in from', async () => {
    for (const page of [
      '/app/settings',
      `/app/reports/${reportId}`,
      '/app/ai-visibility/prj_x',
      '/app/ai-visibility/prj_x/answers?page=2',
      '/oauth/interaction/abc',
    ]) {
      expect((await postForm(page)).headers.get('location'), page).toBe(page);
    }
  });

  it('a link too long to carry still reaches sign-in, without a return', async () => {
    const bounced = await browse(`/app/reports/${reportId}?filter=${'x'.repeat(2100)}`);
    expect(bounced.status).toBe(303);
    expect(bounced.headers.get('location')).toBe('/app/login');
  });
});
