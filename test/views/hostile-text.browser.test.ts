// The three views hold any text: shown as MCP Apps in a real browser with hostile names, titles
// and answers (hostile-text.fixtures.ts), nothing is wider than the frame, no title spills over
// the next chart, a right-to-left override in one name reorders no other text, an answer marks
// a bounded number of mentions and shows a very long one cut (its whole a click away), the names
// of the brand and its competitors never overlap, and the view never asks its host for more than
// the host can show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame } from 'playwright-core';
import { selfContainedDocument, type ViewName } from '../../src/views/index.js';
import { MARKS_PER_ANSWER } from '../../web/views/common/mentions.js';
import { showInAppsHost, type HostedView } from '../support/apps-host.js';
import { chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';
import { answersData, INNOCENT, reportData, visibilityData } from './hostile-text.fixtures.js';

const WIDTH = 390;
// What the test host tells the view it can show: its width, and at most this tall.
const container = { width: WIDTH, maxHeight: 3_000 };
let browser: Browser;

beforeAll(async () => {
  if (chromiumAvailable) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

async function show(view: ViewName, tool: string, data: unknown): Promise<HostedView> {
  const html = await selfContainedDocument(view, `hostile ${view}`);
  return showInAppsHost(browser, {
    html,
    width: WIDTH,
    containerDimensions: container,
    toolInput: { id: 'hostile' },
    toolResult: { content: [{ type: 'text', text: '{}' }], structuredContent: {} },
    callTool: async () => ({ content: [{ type: 'text', text: '{}' }], structuredContent: data }),
  });
}

/** A picture for people to look at, once the host has sized the frame as the view last asked. */
async function snap(hosted: HostedView, name: string) {
  const frameHeight = () =>
    hosted.page.evaluate(() => Math.round(document.querySelector('iframe')!.getBoundingClientRect().height));
  const wanted = async () =>
    Math.min(await hosted.view.evaluate(() => document.documentElement.scrollHeight), container.maxHeight);
  await expect.poll(async () => (await wanted()) === (await frameHeight()), { timeout: 10_000 }).toBe(true);
  // Chromium's full-page capture leaves a grown iframe blank: the viewport is grown to it instead.
  await hosted.page.setViewportSize({ width: WIDTH, height: await frameHeight() });
  await hosted.page.screenshot({ path: screenshotPath(name) });
}

/** Occurrences of the names whose first letter is drawn right of their last (reversed), with their text. */
const reversedNames = (view: Frame) =>
  view.evaluate((needles) => {
    const reversed: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const box = (node: Text, offset: number) => {
      const range = document.createRange();
      range.setStart(node, offset);
      range.setEnd(node, offset + 1);
      return range.getBoundingClientRect();
    };
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      for (const needle of needles) {
        for (let at = node.data.indexOf(needle); at >= 0; at = node.data.indexOf(needle, at + 1)) {
          const [first, last] = [box(node, at), box(node, at + needle.length - 1)];
          // Not drawn (a closed table), or broken over two lines: no order to compare.
          if (!first.width || Math.abs(first.top - last.top) > 1) continue;
          if (first.left > last.left) reversed.push(`${needle} in "${node.data.slice(0, 80)}"`);
        }
      }
    }
    return reversed;
  }, INNOCENT);

/** The names and values beside the brand's and competitors' bars that overlap another, or run past their box. */
const overlappingBarLabels = (view: Frame) =>
  view.locator('.bar-list').evaluate((list) => {
    const labels = [...list.querySelectorAll('.bar-name, .bar-value')];
    const box = list.getBoundingClientRect();
    const meet = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const rects = labels.map((label) => label.getBoundingClientRect());
    return labels.flatMap((label, index) => {
      const rect = rects[index]!;
      const over = rects.some((other, at) => at !== index && meet(rect, other));
      const out = rect.left < box.left - 1 || rect.right > box.right + 1 || label.scrollWidth > label.clientWidth + 1;
      return over || out ? [label.textContent!.slice(0, 40)] : [];
    });
  });

/** The frame holds its page: nothing scrolls sideways, and every size asked of the host fits what it offered. */
async function expectFits(hosted: HostedView) {
  expect.soft(await hosted.view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
  await expect.poll(async () => (await hosted.sizeChanges()).length, { timeout: 10_000 }).toBeGreaterThan(0);
  for (const size of await hosted.sizeChanges()) {
    expect.soft(size.width).toBeLessThanOrEqual(container.width);
    expect.soft(size.height).toBeLessThanOrEqual(container.maxHeight);
  }
  expect(hosted.problems).toEqual([]);
}

describe.skipIf(!chromiumAvailable)('the views with hostile text', () => {
  it('answers: a 100 000-character word is cut, whole on request; marks bounded; names in order', async () => {
    const hosted = await show('answers', 'view_answers', answersData);
    await expect.poll(() => hosted.view.locator('p[role=status]').textContent(), { timeout: 30_000 }).toBe('1–5 of 5');
    // Laid out whole, such a word costs the browser up to a second at each drawing: a few screens are shown.
    const texts = () =>
      hosted.view.locator('article.answer p.text').evaluateAll((boxes) => boxes.map((box) => box.textContent!.length));
    expect.soft(await texts()).toEqual([4_000, 4_000, 4_000, 4_000, 4_000]);
    const marks = await hosted.view
      .locator('article.answer')
      .evaluateAll((cards) => cards.map((card) => card.querySelectorAll('mark').length));
    await snap(hosted, 'hostile-answers.png');
    expect.soft(marks).toEqual([0, MARKS_PER_ANSWER, MARKS_PER_ANSWER, MARKS_PER_ANSWER, MARKS_PER_ANSWER]);
    // Whole words only: the brand "A" is marked as a word, never as the a in "banana".
    expect.soft(new Set(await hosted.view.locator('mark').allTextContents())).toEqual(new Set(['A', 'a']));
    expect.soft(await reversedNames(hosted.view)).toEqual([]);
    await expectFits(hosted);
    const whole = hosted.view.getByRole('button', { name: 'Show the whole answer (100,000 characters)' });
    expect(await hosted.view.getByRole('button', { name: /^Show the whole answer/ }).count()).toBe(5);
    await whole.click();
    expect.soft((await texts())[0]).toBe(100_000);
    expect.soft(await hosted.view.evaluate(() => document.activeElement?.matches('p.text'))).toBe(true);
    expect.soft(await hosted.view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(WIDTH);
    await hosted.page.close();
  });

  it('AI visibility: long names wrap, never over one another; an override in one name reorders no other', async () => {
    const hosted = await show('visibility', 'view_visibility', visibilityData);
    await hosted.view.locator('.kpi').first().waitFor({ timeout: 30_000 });
    expect.soft(await overlappingBarLabels(hosted.view)).toEqual([]);
    await snap(hosted, 'hostile-visibility.png');
    expect.soft(await reversedNames(hosted.view)).toEqual([]);
    await expectFits(hosted);
    await hosted.page.setViewportSize({ width: 1366, height: 900 });
    await expect.poll(() => hosted.view.evaluate(() => innerWidth)).toBe(1366);
    expect.soft(await overlappingBarLabels(hosted.view)).toEqual([]);
    await hosted.page.close();
  });

  it('report: a 150-character title stays in its chart, hides no KPI metric; an override reorders none', async () => {
    const hosted = await show('report', 'view_report', reportData);
    await hosted.view.locator('.kpi').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => hosted.view.locator('.plot canvas').count(), { timeout: 10_000 }).toBe(3);
    await snap(hosted, 'hostile-report.png');
    // No two boxes overlap, and no box's text runs past its edge or its bottom.
    const spills = await hosted.view.locator('figure.chart, .kpi').evaluateAll((boxes) => {
      const rects = boxes.map((box) => box.getBoundingClientRect());
      const meet = (a: DOMRect, b: DOMRect) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const overlapping = rects.flatMap((a, i) => rects.slice(i + 1).filter((b) => meet(a, b)));
      const spillsOut = (box: Element) =>
        [...box.querySelectorAll('figcaption, .name')].some(
          (text) =>
            text.scrollWidth > text.clientWidth ||
            text.getBoundingClientRect().bottom > box.getBoundingClientRect().bottom,
        );
      const overflowing = boxes.filter((box) => box.scrollWidth > box.clientWidth || spillsOut(box));
      return { overlapping: overlapping.length, overflowing: overflowing.length };
    });
    expect.soft(spills).toEqual({ overlapping: 0, overflowing: 0 });
    // A KPI's metric is named first: a title of 150 characters, clamped after it, hides none of it.
    const metricsHidden = await hosted.view.locator('.kpi .name').evaluateAll((names) =>
      names
        .filter((name) => {
          const metric = document.createRange();
          metric.selectNodeContents(name.firstChild!);
          const hidden = metric.getBoundingClientRect().bottom > name.getBoundingClientRect().bottom;
          return hidden || name.firstChild!.textContent === '';
        })
        .map((name) => name.textContent),
    );
    expect.soft(await hosted.view.locator('.kpi .name').count()).toBe(2);
    expect.soft(metricsHidden).toEqual([]);
    expect.soft(await reversedNames(hosted.view)).toEqual([]);
    await expectFits(hosted);
    await hosted.page.close();
  });
});
