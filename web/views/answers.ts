// The answers view: a project's prompts with their totals per locale, and the models' answers
// page by page, newest first, the brand's and competitors' mentions marked, citations listed, and
// why: the searches each ran and the pages it read, those it did not cite marked.
import './shared/theme.css';
import { bdi, clip, clipped, h, names } from './shared/dom.js';
import type { Formats } from './shared/format.js';
import { startView, type Args } from './shared/host.js';
import { ANSWERS_WIDEST_RANGE_DAYS } from './shared/ranges.js';
import { newer, older, pageNumber, PAGES_KEPT, type PageState } from './shared/pages.js';
import { findMentions, MARKS_PER_ANSWER, type Mention } from './shared/mentions.js';
import { rangeControl, text, withheldNotice, type Withheld } from './shared/read.js';

interface AnswersArgs extends Args {
  id: string;
  promptId?: string;
  dateFrom?: string;
  dateTo?: string;
  cursor?: string;
  /** The cursors of the nearest pages before this one (shared/pages.ts). */
  before?: string[];
  /** This page's number, from 1. */
  page?: number;
}

interface Totals {
  locale: string;
  totalRuns: number;
  visibility: number | null;
  shareOfVoice: number | null;
  averagePosition: number | null;
  sentiment: number | null;
}
interface Answer {
  id: string;
  promptId: string;
  prompt: string;
  date: string;
  model: string;
  locale: string;
  text: string;
  brandMentions: number;
  totalMentions: number;
  position: number | null;
  /** The classification of the answer's tone towards the brand, as the API gives it; null when not classified. */
  sentiment: 'positive' | 'neutral' | 'negative' | null;
  competitors: { name: string; mentions: number; position: number | null }[];
  citations: { position: number; url: string; domain: string; title: string | null }[];
  searchQueries: string[];
  retrieved: { url: string; domain: string; title: string | null; cited: boolean }[];
}
interface Project {
  id: string;
  name: string;
  brand: string;
  competitors: string[];
}
interface Prompt {
  id: string;
  text: string;
  topic: string | null;
  totals: Totals[];
}
interface AnswersData {
  // Left out when the MCP token's consent does not include visibility, or prompts (named in `withheld`).
  aiVisibilityProjects?: { data: Project[] };
  aiVisibilityPrompts?: { data: Prompt[] };
  aiVisibilityAnswers: { data: Answer[]; meta: { total: number; nextCursor: string | null } };
  withheld?: Withheld;
}

/**
 * Characters of an answer shown until the person asks for the whole: a few screens of its box.
 * Laying out text costs with its length, most when it has no space to break at: 100 000
 * characters of one word can take the browser a second or more, at every drawing.
 */
const SHOWN_CHARACTERS = 4_000;

/** Answers on a page: the view's operation's default `limit` (graphql/operations/views/view_answers.graphql). */
const PAGE_SIZE = 20;

// Set when the person chose a prompt or a page: the next drawing brings its answers into view. An
// address naming a prompt (a link sent to someone) does the same at the first drawing, once.
let toAnswers = false;
let drawn = false;

startView<AnswersArgs, AnswersData>({
  title: 'Signalboard answers',
  tool: 'view_answers',
  argsFrom(input) {
    const id = text(input.id);
    if (!id) return null;
    const promptId = text(input.promptId);
    const dateFrom = text(input.dateFrom);
    const dateTo = text(input.dateTo);
    const cursor = text(input.cursor);
    const before = [input.before ?? []].flat().filter((item): item is string => typeof item === 'string');
    // An address may hold more cursors than the view keeps: the page's number counts them all.
    const page = pageNumber({ cursor, before, page: Number(input.page) });
    return {
      id,
      ...(promptId ? { promptId } : {}),
      ...(dateFrom ? { dateFrom } : {}),
      ...(dateTo ? { dateTo } : {}),
      ...(cursor ? { cursor, page } : {}),
      ...(cursor && before.length ? { before: before.slice(-PAGES_KEPT) } : {}),
    };
  },
  local: ['before', 'page'],
  render(root, data, args, { formats: f, reload }) {
    const project = data.aiVisibilityProjects?.data.find((candidate) => candidate.id === args.id);
    const prompts = data.aiVisibilityPrompts?.data;
    const answers = data.aiVisibilityAnswers;
    const promptText = new Map<string, string>([
      ...answers.data.map((answer): [string, string] => [answer.promptId, answer.prompt]),
      ...(prompts ?? []).map((prompt): [string, string] => [prompt.id, prompt.text]),
    ]);
    // The tool's default range: the 30 days up to today (UTC).
    const to = args.dateTo ?? new Date().toISOString().slice(0, 10);
    const range = {
      from: args.dateFrom ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10),
      to,
    };
    const { cursor: _cursor, before: _before, page: _page, ...withoutCursor } = args;
    const go = (next: AnswersArgs) => {
      toAnswers = true;
      reload(next);
    };
    const heading = h(
      'h2',
      { id: 'answers', tabindex: -1 },
      args.promptId ? ['Answers to “', bdi(promptText.get(args.promptId) ?? args.promptId), '”'] : 'Answers',
    );
    root.append(
      h('h1', {}, project ? [bdi(project.name), ': answers'] : 'Answers'),
      data.aiVisibilityProjects
        ? h(
            'p',
            { class: 'sub' },
            project
              ? [
                  bdi(project.brand),
                  ' and ',
                  ...(project.competitors.length ? names(project.competitors) : ['no competitors']),
                ]
              : '',
          )
        : withheldNotice(
            'The project\u2019s brand and competitors (which mark the mentions)',
            data.withheld?.aiVisibilityProjects,
          ),
      h(
        'div',
        { class: 'controls' },
        rangeControl(
          range,
          (dateFrom, dateTo) => reload({ ...withoutCursor, dateFrom, dateTo }),
          ANSWERS_WIDEST_RANGE_DAYS,
        ),
      ),
      h('h2', {}, 'Prompts'),
      prompts
        ? promptTable(prompts, args, f, (promptId) => {
            const { promptId: _previous, ...others } = withoutCursor;
            go({ ...others, ...(promptId ? { promptId } : {}) });
          })
        : withheldNotice('The prompts with their totals', data.withheld?.aiVisibilityPrompts),
      heading,
    );
    // A page number edited in the address places the page no further than the list's end.
    const last = Math.max(0, answers.meta.total - answers.data.length);
    const position = Math.min((pageNumber(args) - 1) * PAGE_SIZE, last);
    root.append(
      h(
        'p',
        { class: 'sub', role: 'status' },
        answers.data.length
          ? `${f.number(position + 1)}–${f.number(position + answers.data.length)} of ${f.number(answers.meta.total)}`
          : 'No answers in this range.',
      ),
    );
    for (const answer of answers.data) root.append(answerCard(answer, promptText.get(answer.promptId), project, f));
    root.append(
      h(
        'div',
        { class: 'controls' },
        pageButtons(args, answers.meta.nextCursor, (state) => go({ ...withoutCursor, ...state })),
      ),
    );
    if (!drawn && args.promptId) toAnswers = true;
    drawn = true;
    if (toAnswers) {
      // The list starts far below the prompts: scrolled to, and the keyboard's focus moved there.
      toAnswers = false;
      requestAnimationFrame(() => {
        heading.scrollIntoView({ block: 'start' });
        heading.focus({ preventScroll: true });
      });
    }
  },
});

/** "← Newer" ("← Newest" where the pages between were forgotten) and "Older →". */
function pageButtons(shown: PageState, next: string | null, turn: (state: PageState) => void): HTMLElement[] {
  const back = newer(shown);
  return [
    h(
      'button',
      { type: 'button', ...(back ? {} : { disabled: true }), onclick: () => back && turn(back.state) },
      back?.skips ? '← Newest' : '← Newer',
    ),
    h(
      'button',
      { type: 'button', ...(next ? {} : { disabled: true }), onclick: () => next && turn(older(shown, next)) },
      'Older →',
    ),
  ];
}

function promptTable(prompts: Prompt[], args: AnswersArgs, f: Formats, choose: (promptId: string | null) => void) {
  // Each prompt spans the row above its locales' totals, so that a narrow screen keeps it readable.
  const head = ['Locale', 'Runs', 'Visibility', 'Share of voice', 'Avg. position'];
  return h(
    'div',
    { class: 'scroll prompts' },
    h(
      'table',
      {},
      h('caption', {}, 'Prompts with their totals per locale (choose one to read its answers)'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((cell) => h('th', { scope: 'col' }, cell)),
        ),
      ),
      prompts.map((prompt) =>
        h(
          'tbody',
          { class: prompt.id === args.promptId ? 'selected' : '' },
          h(
            'tr',
            {},
            h(
              'th',
              { scope: 'rowgroup', colspan: head.length, class: 'prompt' },
              h(
                'button',
                {
                  type: 'button',
                  'aria-pressed': String(prompt.id === args.promptId),
                  onclick: () => choose(prompt.id === args.promptId ? null : prompt.id),
                },
                prompt.text,
              ),
            ),
          ),
          prompt.totals.map((totals) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, totals.locale),
              h('td', {}, f.number(totals.totalRuns)),
              h('td', {}, f.percent(totals.visibility)),
              h('td', {}, f.percent(totals.shareOfVoice)),
              h('td', {}, f.decimal(totals.averagePosition)),
            ),
          ),
        ),
      ),
    ),
  );
}

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
function answerCard(answer: Answer, prompt: string | undefined, project: Project | undefined, f: Formats) {
  const counted = (name: string, count: number) => [bdi(name), ` ${f.number(count)}×`];
  const mentions = [
    counted(project?.brand ?? 'Brand', answer.brandMentions),
    ...answer.competitors
      .filter((competitor) => competitor.mentions)
      .map((competitor) => counted(competitor.name, competitor.mentions)),
  ];
  const found = findMentions(answer.text, project?.brand, project?.competitors ?? []);
  const titled = (title: string | null, url: string) => [title ? clipped(title) : '', title ? ' — ' : '', clipped(url)];
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
