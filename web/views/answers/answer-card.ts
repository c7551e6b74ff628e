// One answer: its text with the brand's and competitors' mentions marked, its citations, and the
// searches it ran and the pages it read (those it did not cite marked).
import { bdi, clip, clipped, h } from '../common/dom.js';
import type { Formats } from '../common/format.js';
import { findMentions, MARKS_PER_ANSWER, type Mention } from '../common/mentions.js';
import type { Answer, Project } from './data.js';

/**
 * Characters of an answer shown until the person asks for the whole: a few screens of its box.
 * Laying out text costs with its length, most when it has no space to break at: 100 000
 * characters of one word can take the browser a second or more, at every drawing.
 */
const SHOWN_CHARACTERS = 4_000;

/** The answer's text with the mentions found in it marked (text nodes only). */
function marked(text: string, mentions: Mention[]): (string | Node)[] {
  const parts: (string | Node)[] = [];
  let at = 0;
  for (const { start, end, kind } of mentions) {
    parts.push(text.slice(at, start), h('mark', { class: kind }, text.slice(start, end)));
    at = end;
  }
  parts.push(text.slice(at));
  return parts;
}

/** The answer's text, a very long one cut, with a button that shows it whole. */
function answerText(text: string, mentions: Mention[], f: Formats): HTMLElement[] {
  const shown = clip(text, SHOWN_CHARACTERS);
  // The cut text is the answer's own up to its ellipsis: the marks within it keep their places.
  const within = shown === text ? mentions : mentions.filter((mention) => mention.end < shown.length);
  // A long answer scrolls in its own box (focusable, so that a keyboard scrolls it too).
  const box = h('p', { class: 'text', tabindex: 0 }, marked(shown, within));
  if (shown === text) return [box];
  const whole = h(
    'button',
    {
      type: 'button',
      class: 'whole',
      onclick: () => {
        box.replaceChildren(...marked(text, mentions));
        whole.remove();
        box.focus();
      },
    },
    `Show the whole answer (${f.number(Array.from(text).length)} characters)`,
  );
  return [box, whole];
}

// Every name, title, URL and query is someone else's text: each is isolated (bdi) from the rest.
export function answerCard(answer: Answer, prompt: string | undefined, project: Project | undefined, f: Formats) {
  const counted = (name: string, count: number) => [bdi(name), ` ${f.number(count)}×`];
  const mentions = [
    counted(project?.brand ?? 'Brand', answer.brandMentions),
    ...answer.competitors
      .filter((competitor) => competitor.mentions)
      .map((competitor) => counted(competitor.name, competitor.mentions)),
  ];
  const found = findMentions(answer.text, project?.brand, project?.competitors ?? []);
  const titled = (title: string | null, url: string) =>
    title ? [clipped(title), ' — ', clipped(url)] : ['', '', clipped(url)];
  return h(
    'article',
    { class: 'answer' },
    h(
      'div',
      { class: 'meta' },
      `${f.day(answer.date)} · `,
      bdi(answer.model),
      ' · ',
      bdi(answer.locale),
      answer.position !== null ? ` · position ${f.number(answer.position)}` : '',
      answer.sentiment !== null ? ` · sentiment ${answer.sentiment}` : '',
    ),
    prompt ? h('div', { class: 'meta' }, 'Prompt: ', bdi(prompt)) : null,
    ...answerText(answer.text, found.mentions, f),
    h(
      'div',
      { class: 'meta' },
      'Mentions: ',
      mentions.flatMap((parts, index) => (index ? [', ', ...parts] : parts)),
      found.capped ? ` (the first ${f.number(MARKS_PER_ANSWER)} marked in the text)` : '',
    ),
    answer.citations.length
      ? h(
          'ol',
          { 'aria-label': 'Citations' },
          answer.citations.map((citation) => h('li', {}, titled(citation.title, citation.url))),
        )
      : null,
    answer.searchQueries.length
      ? h(
          'div',
          { class: 'meta' },
          'Searched: ',
          answer.searchQueries.flatMap((query, index) => [index ? ' · ' : '', '“', bdi(query), '”']),
        )
      : null,
    answer.retrieved.length
      ? h(
          'ul',
          { 'aria-label': 'Pages read' },
          answer.retrieved.map((page) =>
            h(
              'li',
              { class: page.cited ? 'cited' : 'uncited' },
              page.cited ? 'Read and cited: ' : 'Read, not cited: ',
              titled(page.title, page.url),
            ),
          ),
        )
      : null,
  );
}
