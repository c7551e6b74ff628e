// The answers view: a project's prompts with their totals per locale, and the models' answers
// page by page, newest first, the brand's and competitors' mentions marked, citations listed, and
// why: the searches each ran and the pages it read, those it did not cite marked.
import './common/theme.css';
import { bdi, h, names } from './common/dom.js';
import { startView } from './common/host.js';
import { ANSWERS_WIDEST_RANGE_DAYS } from './common/ranges.js';
import { newer, older, pageNumber, PAGES_KEPT, type PageState } from './common/pages.js';
import { rangeControl, text, withheldNotice } from './common/read.js';
import { answerCard } from './answers/answer-card.js';
import type { AnswersArgs, AnswersData, Project } from './answers/data.js';
import { promptTable } from './answers/prompt-table.js';

/** Answers on a page: the view's operation's default `limit` (graphql/operations/views/view_answers.graphql). */
const PAGE_SIZE = 20;

// Set when the person chose a prompt or a page: the next drawing brings its answers into view. An
// address naming a prompt (a link sent to someone) does the same at the first drawing, once.
let toAnswers = false;
let drawn = false;

/** The arguments without `keys` (a new prompt or range starts at the first page). */
function without(args: AnswersArgs, keys: (keyof AnswersArgs)[]): AnswersArgs {
  const rest = { ...args };
  for (const key of keys) delete rest[key];
  return rest;
}

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
    const withoutCursor = without(args, ['cursor', 'before', 'page']);
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
      ...projectHeading(data, project),
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
            go({ ...without(withoutCursor, ['promptId']), ...(promptId ? { promptId } : {}) });
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

/** The project's name, and its brand and competitors (which mark the mentions) unless withheld. */
function projectHeading(data: AnswersData, project: Project | undefined): HTMLElement[] {
  const known = project
    ? [bdi(project.brand), ' and ', ...(project.competitors.length ? names(project.competitors) : ['no competitors'])]
    : '';
  return [
    h('h1', {}, project ? [bdi(project.name), ': answers'] : 'Answers'),
    data.aiVisibilityProjects
      ? h('p', { class: 'sub' }, known)
      : withheldNotice(
          'The project\u2019s brand and competitors (which mark the mentions)',
          data.withheld?.aiVisibilityProjects,
        ),
  ];
}

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
