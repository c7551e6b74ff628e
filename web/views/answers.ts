// The answers view: a project's prompts with their totals per locale, and the models' answers
// page by page, newest first, the brand's and competitors' mentions marked, citations listed, and
// why: the searches each ran and the pages it read, those it did not cite marked.
import './shared/theme.css';
import { h } from './shared/dom.js';
import type { Formats } from './shared/format.js';
import { startView, type Args } from './shared/host.js';
import { rangeControl, text, withheldNotice, type Withheld } from './shared/read.js';

interface AnswersArgs extends Args {
  id: string;
  promptId?: string;
  dateFrom?: string;
  dateTo?: string;
  cursor?: string;
}

interface Totals { locale: string; totalRuns: number; visibility: number | null; shareOfVoice: number | null; averagePosition: number | null; sentiment: number | null }
interface Answer {
  id: string; promptId: string; prompt: string; date: string; model: string; locale: string; text: string;
  brandMentions: number; totalMentions: number; position: number | null; sentiment: number | null;
  competitors: { name: string; mentions: number; position: number | null }[];
  citations: { position: number; url: string; domain: string; title: string | null }[];
  searchQueries: string[];
  retrieved: { url: string; domain: string; title: string | null; cited: boolean }[];
}
interface Project { id: string; name: string; brand: string; competitors: string[] }
interface Prompt { id: string; text: string; topic: string | null; totals: Totals[] }
interface AnswersData {
  // Left out when the MCP token's consent does not include visibility, or prompts (named in `withheld`).
  aiVisibilityProjects?: { data: Project[] };
  aiVisibilityPrompts?: { data: Prompt[] };
  aiVisibilityAnswers: { data: Answer[]; meta: { total: number; nextCursor: string | null } };
  withheld?: Withheld;
}

// The cursors of the pages before this one (keyset paging only goes forward).
const earlier: (string | undefined)[] = [];

startView<AnswersArgs, AnswersData>({
  title: 'Signalboard answers',
  tool: 'view_answers',
  argsFrom(input) {
    const id = text(input.id);
    if (!id) return null;
    const promptId = text(input.promptId);
    const dateFrom = text(input.dateFrom);
    const dateTo = text(input.dateTo);
    return { id, ...(promptId ? { promptId } : {}), ...(dateFrom ? { dateFrom } : {}), ...(dateTo ? { dateTo } : {}) };
  },
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
    const range = { from: args.dateFrom ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10), to };
    const { cursor: _cursor, ...withoutCursor } = args;
    const restart = (next: AnswersArgs) => {
      earlier.length = 0;
      reload(next);
    };
    root.append(
      h('h1', {}, project ? `${project.name}: answers` : 'Answers'),
      data.aiVisibilityProjects
        ? h('p', { class: 'sub' }, project ? `${project.brand} and ${project.competitors.join(', ') || 'no competitors'}` : '')
        : withheldNotice('The project\u2019s brand and competitors (which mark the mentions)', data.withheld?.aiVisibilityProjects),
      h('div', { class: 'controls' }, rangeControl(range, (dateFrom, dateTo) => restart({ ...withoutCursor, dateFrom, dateTo }))),
      h('h2', {}, 'Prompts'),
      prompts ? promptTable(prompts, args, f, (promptId) => {
        const { promptId: _previous, ...others } = withoutCursor;
        restart({ ...others, ...(promptId ? { promptId } : {}) });
      }) : withheldNotice('The prompts with their totals', data.withheld?.aiVisibilityPrompts),
      h('h2', {}, args.promptId ? `Answers to “${promptText.get(args.promptId) ?? args.promptId}”` : 'Answers'),
    );
    const position = earlier.length * (answers.data.length || 1);
    root.append(h('p', { class: 'sub', role: 'status' }, answers.data.length ? `${f.number(position + 1)}–${f.number(position + answers.data.length)} of ${f.number(answers.meta.total)}` : 'No answers in this range.'));
    for (const answer of answers.data) root.append(answerCard(answer, promptText.get(answer.promptId), project, f));
    root.append(h('div', { class: 'controls' },
      h('button', { type: 'button', ...(earlier.length ? {} : { disabled: true }), onclick: () => { const cursor = earlier.pop(); reload({ ...withoutCursor, ...(cursor ? { cursor } : {}) }); } }, '← Newer'),
      h('button', { type: 'button', ...(answers.meta.nextCursor ? {} : { disabled: true }), onclick: () => { earlier.push(args.cursor); reload({ ...args, cursor: answers.meta.nextCursor! }); } }, 'Older →')));
  },
});

function promptTable(prompts: Prompt[], args: AnswersArgs, f: Formats, choose: (promptId: string | null) => void) {
  // Each prompt spans the row above its locales' totals, so that a narrow screen keeps it readable.
  const head = ['Locale', 'Runs', 'Visibility', 'Share of voice', 'Avg. position'];
  return h('div', { class: 'scroll prompts' }, h('table', {},
    h('caption', {}, 'Prompts with their totals per locale (choose one to read its answers)'),
    h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col' }, cell)))),
    prompts.map((prompt) => h('tbody', { class: prompt.id === args.promptId ? 'selected' : '' },
      h('tr', {}, h('th', { scope: 'rowgroup', colspan: head.length, class: 'prompt' }, h('button', { type: 'button', 'aria-pressed': String(prompt.id === args.promptId), onclick: () => choose(prompt.id === args.promptId ? null : prompt.id) }, prompt.text))),
      prompt.totals.map((totals) => h('tr', {}, h('th', { scope: 'row' }, totals.locale), h('td', {}, f.number(totals.totalRuns)), h('td', {}, f.percent(totals.visibility)), h('td', {}, f.percent(totals.shareOfVoice)), h('td', {}, f.number(totals.averagePosition))))))));
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The answer's text with each brand and competitor mention marked (text nodes only). */
function marked(text: string, brand: string | undefined, competitors: string[]): (string | Node)[] {
  const names = [brand, ...competitors].filter((name): name is string => Boolean(name));
  if (!names.length) return [text];
  const kinds = new Map(names.map((name) => [name.toLowerCase(), name === brand ? 'brand' : 'competitor']));
  const pattern = new RegExp(`(${names.sort((a, b) => b.length - a.length).map(escape).join('|')})`, 'gi');
  return text.split(pattern).map((part, index) => (index % 2 ? h('mark', { class: kinds.get(part.toLowerCase()) ?? 'competitor' }, part) : part));
}

function answerCard(answer: Answer, prompt: string | undefined, project: Project | undefined, f: Formats) {
  const mentions = [`${project?.brand ?? 'Brand'} ${f.number(answer.brandMentions)}×`, ...answer.competitors.filter((competitor) => competitor.mentions).map((competitor) => `${competitor.name} ${f.number(competitor.mentions)}×`)];
  return h('article', { class: 'answer' },
    h('div', { class: 'meta' }, `${f.day(answer.date)} · ${answer.model} · ${answer.locale}`, answer.position !== null ? ` · position ${f.number(answer.position)}` : '', answer.sentiment !== null ? ` · sentiment ${f.number(answer.sentiment)}` : ''),
    prompt ? h('div', { class: 'meta' }, `Prompt: ${prompt}`) : null,
    h('p', {}, marked(answer.text, project?.brand, project?.competitors ?? [])),
    h('div', { class: 'meta' }, `Mentions: ${mentions.join(', ')}`),
    answer.citations.length ? h('ol', { 'aria-label': 'Citations' }, answer.citations.map((citation) => h('li', {}, citation.title ? `${citation.title} — ` : '', citation.url))) : null,
    answer.searchQueries.length ? h('div', { class: 'meta' }, `Searched: ${answer.searchQueries.map((query) => `“${query}”`).join(' · ')}`) : null,
    answer.retrieved.length
      ? h('ul', { 'aria-label': 'Pages read' }, answer.retrieved.map((page) => h('li', { class: page.cited ? 'cited' : 'uncited' }, page.cited ? 'Read and cited: ' : 'Read, not cited: ', page.title ? `${page.title} — ` : '', page.url)))
      : null);
}
