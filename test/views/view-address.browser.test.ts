// A view's state is its web page's address: a preset, a comparison, a locale, a prompt and a page
// chosen in the page are in the query string, and the page loaded again (or sent to someone)
// shows the same; choosing a prompt (or opening an address naming one) brings its answers into
// view with the keyboard's focus. The address stays short however many pages are turned, and one
// asking for what cannot be shown (a preset that does not exist, a range too wide, a locale
// without data) shows the rest, saying so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seededViewsWorkspace, v1Get } from '../support/views.js';
import { useListeningApp } from '../support/listen.js';
import { chromiumAvailable, launchChromium } from '../support/browser.js';

const served = useListeningApp();
let browser: Browser;
let seeded: Awaited<ReturnType<typeof seededViewsWorkspace>>;

beforeAll(async () => {
  if (!chromiumAvailable) return;
  seeded = await seededViewsWorkspace(served);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

async function signedIn(path: string, ready: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const [name, value] = [
    seeded.cookie.slice(0, seeded.cookie.indexOf('=')),
    seeded.cookie.slice(seeded.cookie.indexOf('=') + 1),
  ];
  await context.addCookies([{ name, value, url: served.baseUrl }]);
  const page = await context.newPage();
  await page.goto(`${served.baseUrl}${path}`);
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
  return page;
}

/** What the page shows, read the same way before and after a reload. */
const shown = (page: Page) =>
  page.evaluate(() => ({
    selects: [...document.querySelectorAll('#view select')].map((select) => (select as HTMLSelectElement).value),
    sub: document.querySelector('#view .sub')?.textContent,
    status: document.querySelector('#view p[role=status]')?.textContent,
    pressed: document.querySelector('#view [aria-pressed=true]')?.textContent ?? null,
    kpis: [...document.querySelectorAll('#view .kpi .value')].map((value) => value.textContent),
  }));

/** The data asked for have arrived and are drawn (the controls wait until then). */
const day = (date: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

const settled = (page: Page) =>
  expect
    .poll(() => page.evaluate(() => document.documentElement.hasAttribute('aria-busy')), { timeout: 15_000 })
    .toBe(false);

async function reloaded(page: Page, ready: string) {
  await page.reload();
  await page.locator(ready).first().waitFor({ timeout: 20_000 });
  await settled(page);
}

describe.skipIf(!chromiumAvailable)("a view's address", () => {
  it('report: the preset and the comparison chosen are in the address and survive a reload', async () => {
    const page = await signedIn(`/app/reports/${seeded.reportId}`, '.kpi');
    await page.selectOption('select[aria-label="Dates"]', 'last_7_days');
    await expect.poll(() => page.evaluate(() => location.search)).toBe('?datePreset=last_7_days');
    await settled(page);
    await page.selectOption('select[aria-label="Compare with"]', 'previous_year');
    await expect.poll(() => page.locator('.sub').first().textContent()).toContain('2025');
    expect(new URL(page.url()).search).toBe('?datePreset=last_7_days&comparePreset=previous_year');
    const before = await shown(page);
    await reloaded(page, '.kpi');
    expect(await shown(page)).toEqual(before);
    // Back goes to the state before the last choice.
    await page.goBack();
    await expect.poll(() => page.locator('select[aria-label="Compare with"]').inputValue()).not.toBe('previous_year');
    expect(new URL(page.url()).search).toBe('?datePreset=last_7_days');
    await page.context().close();
  });

  it('AI visibility: the locale and the range chosen survive a reload', async () => {
    const page = await signedIn(`/app/ai-visibility/${seeded.projectId}`, '.kpi');
    const locales = await page
      .locator('select[aria-label="Locale"] option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(locales.length).toBeGreaterThan(1);
    await page.selectOption('select[aria-label="Locale"]', locales[1]!);
    const thirtyDays = await page.locator('.sub').first().textContent();
    await page.selectOption('select[aria-label="Range"]', '7');
    await expect.poll(() => page.locator('.sub').first().textContent()).not.toBe(thirtyDays);
    expect(new URL(page.url()).searchParams.get('locale')).toBe(locales[1]);
    expect(new URL(page.url()).searchParams.get('dateFrom')).toMatch(/^\d{4}-\d\d-\d\d$/);
    const before = await shown(page);
    expect(before.selects).toContain(locales[1]);
    await reloaded(page, '.kpi');
    expect(await shown(page)).toEqual(before);
    await page.context().close();
  });

  it(
    'answers: a page and a prompt survive a reload; ' + 'choosing a prompt brings its answers into view, focused',
    async () => {
      const page = await signedIn(`/app/ai-visibility/${seeded.projectId}/answers`, 'article.answer');
      await page.getByRole('button', { name: 'Older →' }).click();
      await expect.poll(() => page.locator('p[role=status]').textContent()).toMatch(/^21–40 of/);
      expect(new URL(page.url()).searchParams.get('cursor')).toBeTruthy();
      await reloaded(page, 'article.answer');
      expect(await page.locator('p[role=status]').textContent()).toMatch(/^21–40 of/);
      await page.getByRole('button', { name: '← Newer' }).click();
      await expect.poll(() => page.locator('p[role=status]').textContent()).toMatch(/^1–20 of/);
      expect(new URL(page.url()).search).toBe('');

      await page.evaluate(() => scrollTo(0, 0));
      const prompt = page.locator('.prompts button').nth(1);
      const text = await prompt.textContent();
      await prompt.click();
      await expect.poll(() => page.locator('#answers').textContent()).toBe(`Answers to “${text}”`);
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('answers');
      const heading = (await page.locator('#answers').boundingBox())!;
      expect(heading.y).toBeGreaterThanOrEqual(-1);
      expect(heading.y).toBeLessThan(844 / 2);
      expect(new URL(page.url()).searchParams.get('promptId')).toMatch(/./);
      const before = await shown(page);
      await reloaded(page, 'article.answer');
      expect(await shown(page)).toEqual(before);
      await page.context().close();
    },
  );

  it('an address naming a prompt opens at its answers, focused', async () => {
    const prompts = await v1Get(served.baseUrl, `/ai-visibility/projects/${seeded.projectId}/prompts`, seeded.apiKey);
    const height = 844;
    const page = await signedIn(
      `/app/ai-visibility/${seeded.projectId}/answers?promptId=${prompts.data[1].id}`,
      'article.answer',
    );
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('answers');
    const heading = (await page.locator('#answers').boundingBox())!;
    expect(heading.y).toBeGreaterThanOrEqual(-1);
    expect(heading.y).toBeLessThan(height / 2);
    expect(await page.evaluate(() => scrollY)).toBeGreaterThan(500);
    await page.context().close();
  });

  it('answers: 14 pages turned keep 10 cursors in the address and the place in the list, and turn back', async () => {
    const page = await signedIn(`/app/ai-visibility/${seeded.projectId}/answers`, 'article.answer');
    const older = page.getByRole('button', { name: 'Older →' });
    const firstShown = () =>
      page
        .locator('p[role=status]')
        .textContent()
        .then((text) => Number(text!.split('–')[0]));
    for (let turned = 1; turned <= 14; turned++) {
      await older.click();
      await expect.poll(firstShown).toBe(turned * 20 + 1);
      await settled(page);
    }
    const address = new URL(page.url());
    expect(address.searchParams.getAll('before')).toHaveLength(10);
    expect(address.searchParams.get('page')).toBe('15');
    expect(address.search.length).toBeLessThan(1_500);
    await reloaded(page, 'article.answer');
    expect(await page.locator('p[role=status]').textContent()).toMatch(/^281–300 of/);
    for (let back = 14; back >= 5; back--) {
      await page.getByRole('button', { name: '← Newer' }).click();
      await expect.poll(firstShown).toBe((back - 1) * 20 + 1);
      await settled(page);
    }
    // The cursors of the pages before were not kept: the way back is to the first page, and it says so.
    await page.getByRole('button', { name: '← Newest' }).click();
    await expect.poll(() => page.locator('p[role=status]').textContent()).toMatch(/^1–20 of/);
    expect(new URL(page.url()).search).toBe('');
    await page.context().close();
  });

  it('an address asking for what cannot be shown: the rest, the controls, a notice, a corrected address', async () => {
    const notice = (page: Page) => page.locator('#view .notice.fallback').textContent();
    const report = await signedIn(`/app/reports/${seeded.reportId}?datePreset=bogus&comparePreset=none`, '.kpi');
    expect(await notice(report)).toBe(
      'The address asked for datePreset “bogus”, which this view cannot show: it shows its default instead.',
    );
    expect(await report.locator('select[aria-label="Dates"]').count()).toBe(1);
    expect(new URL(report.url()).search).toBe('?comparePreset=none');
    // A choice made there draws without the notice.
    await report.selectOption('select[aria-label="Dates"]', 'last_7_days');
    await expect.poll(() => report.locator('#view .notice.fallback').count()).toBe(0);
    await report.context().close();

    const answersPath = `/app/ai-visibility/${seeded.projectId}/answers`;
    const prompts = await v1Get(served.baseUrl, `/ai-visibility/projects/${seeded.projectId}/prompts`, seeded.apiKey);
    const promptId: string = prompts.data[1].id;
    const answers = await signedIn(`${answersPath}?promptId=${promptId}&dateFrom=2020-01-01`, 'article.answer');
    expect(await notice(answers)).toContain('dateFrom “2020-01-01”');
    expect(await answers.locator('select[aria-label="Range"]').inputValue()).toBe('30');
    expect(Object.fromEntries(new URL(answers.url()).searchParams)).toEqual({ promptId });
    await answers.context().close();

    const visibility = await signedIn(`/app/ai-visibility/${seeded.projectId}?locale=xx-XX`, '.kpi');
    expect(await notice(visibility)).toContain('locale “xx-XX”');
    expect(new URL(visibility.url()).search).toBe('');
    await visibility.context().close();

    // A range wider than its reads accept (400 days): the default range, its controls, the notice.
    const wide = await signedIn(`/app/ai-visibility/${seeded.projectId}?dateFrom=2020-01-01&dateTo=2026-11-27`, '.kpi');
    expect(await notice(wide)).toContain('dateFrom “2020-01-01”');
    expect(await wide.locator('select[aria-label="Locale"]').count()).toBe(1);
    await wide.context().close();
  });
});

// What a new user met (issue 49's trial): a period without any data shown as 0 and -100 %; a
// one-day range's bucket named by its week's first day; partial buckets drawn on line charts like
// any other point; average positions drawn with a worse position higher.
describe.skipIf(!chromiumAvailable)('periods and ranks in the views', () => {
  it('report over a period without data: "–", "no data yet" (tiles, totals), the compared value kept', async () => {
    const query = 'datePreset=today&comparePreset=previous_period';
    const { data } = await v1Get(served.baseUrl, `/reports/${seeded.reportId}/data?${query}`, seeded.apiKey);
    expect(data.range.daysWithData).toBe(0);
    const page = await signedIn(`/app/reports/${seeded.reportId}?${query}`, '.kpi');
    const tiles = await page.locator('.kpi').evaluateAll((kpis) =>
      kpis.map((kpi) => ({
        value: kpi.querySelector('.value')!.textContent,
        text: kpi.textContent!,
      })),
    );
    expect(tiles.length).toBeGreaterThan(0);
    for (const tile of tiles) {
      expect(tile.value, tile.text).toBe('–');
      expect(tile.text).toContain('no data yet');
      expect(tile.text).not.toMatch(/-100|partial data/);
    }
    expect(await page.locator('.notice.coverage').textContent()).toContain('Its figures read "no data yet", not 0');
    // A tile whose compared period has a figure keeps it.
    expect(tiles.filter((tile) => tile.text.includes('(was ')).length).toBeGreaterThan(0);
    const totals = await page.locator('tr:has(th:text-is("Total")) td').allTextContents();
    expect(totals.length).toBeGreaterThan(0);
    for (const total of totals) expect(total).toMatch(/^– no data yet/);
    // A one-day range's bucket, and the one it is compared with, are named by their days, in every chart.
    const notes = await page.locator('.note.partial').allTextContents();
    expect(notes.length).toBeGreaterThan(2);
    const named = `Partial periods: ${day(data.range.from)} (no data) compared with ${day(data.compareRange.from)}. `;
    for (const note of notes) expect(note.slice(0, named.length)).toBe(named);
    await page.context().close();
  });

  it('a line chart draws its partial buckets lighter, and says how', async () => {
    const page = await signedIn(`/app/reports/${seeded.reportId}?datePreset=last_90_days&comparePreset=none`, '.kpi');
    const month = page.locator('figure.chart', { hasText: 'Meta by month' }).first();
    await expect
      .poll(() => month.locator('.note.partial').textContent())
      .toMatch(/^Partial periods \(drawn lighter: a faded dashed line to a hollow point\): /);
    await page.context().close();
  });

  it('average position is drawn with 1 at the top, and says so', async () => {
    const page = await signedIn(`/app/ai-visibility/${seeded.projectId}`, '.kpi');
    await expect
      .poll(() => page.locator('figure.chart figcaption').allTextContents())
      .toContain('Avg. position by model · 1 (best) at the top');
    await page.context().close();
  });
});
