// The project's prompts with their totals per locale: choosing one reads its answers.
import { h } from '../common/dom.js';
import type { Formats } from '../common/format.js';
import type { AnswersArgs, Prompt } from './data.js';

export function promptTable(
  prompts: Prompt[],
  args: AnswersArgs,
  f: Formats,
  choose: (promptId: string | null) => void,
) {
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
