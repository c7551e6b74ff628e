// What the answers cite, and what to do next: the cited domains of one locale and its opportunity lists.
import { bdi, clipped, h, names, table } from '../common/dom.js';
import type { Formats } from '../common/format.js';
import type { Opportunities, SourceRow } from './data.js';

export function sources(rows: SourceRow[], locale: string, f: Formats) {
  if (!rows.length) return h('p', { class: 'notice empty' }, 'No citations in this range.');
  return h(
    'div',
    { class: 'scroll' },
    table(
      `Most cited domains, ${locale}`,
      [
        'Domain',
        'Citations',
        'Share of citations',
        'Answers citing',
        'Share of answers',
        'Runs that read it',
        'Read, not cited',
      ],
      rows.map((row) => [
        h(
          'span',
          {},
          bdi(row.domain),
          row.owned ? h('span', { class: 'tag owned' }, 'owned') : null,
          row.competitor ? h('span', { class: 'tag competitor' }, bdi(row.competitor)) : null,
        ),
        f.number(row.citations),
        f.percent(row.citationShare),
        f.number(row.answersCiting),
        f.percent(row.answerShare),
        f.number(row.retrievals),
        f.number(row.retrievedNotCited),
      ]),
    ),
  );
}

/** The opportunity lists of one locale, each with the figures behind its score. */
export function opportunities(lists: Opportunities, locale: string, f: Formats) {
  const prompts = lists.prompts.filter((item) => item.locale === locale);
  const sites = lists.sources.filter((item) => item.locale === locale);
  const pages = lists.pages.filter((item) => item.locale === locale);
  if (!prompts.length && !sites.length && !pages.length)
    return h('p', { class: 'notice empty' }, 'No opportunities in this range.');
  return h(
    'div',
    { class: 'scroll' },
    prompts.length
      ? table(
          'Prompts where a competitor is visible and the brand is not (runs at stake)',
          ['Prompt', 'Runs', 'Brand', 'Best competitor', 'Runs at stake'],
          prompts.map((item) => [
            item.prompt,
            f.number(item.runs),
            f.percent(item.brandVisibility),
            h('span', {}, bdi(item.bestCompetitor.name), ` ${f.percent(item.bestCompetitor.visibility)}`),
            f.number(item.score),
          ]),
        )
      : null,
    sites.length
      ? table(
          'Sites citing competitors but never the brand',
          ['Domain', 'Citations', 'Answers', 'Competitors named'],
          sites.map((item) => [
            item.domain,
            f.number(item.citations),
            f.number(item.answers),
            h('span', {}, names(item.competitors)),
          ]),
        )
      : null,
    pages.length
      ? table(
          'Own pages read but not cited',
          ['Page', 'Runs that read it', 'Read, not cited'],
          pages.map((item) => [clipped(item.url), f.number(item.retrievals), f.number(item.retrievedNotCited)]),
        )
      : null,
  );
}
