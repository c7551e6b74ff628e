// The sections of a view's operation that show another toolset's data: found where they are
// marked, declared the one way that lets the web app's pages read everything, and set per call
// from the consent. Pure.
import { describe, expect, it } from 'vitest';
import { parse, type OperationDefinitionNode } from 'graphql';
import { grantedSections, grantVariables, withheldSections } from '../../src/mcp/tools/granted-sections.js';
import { consentOf } from '../../src/mcp/tools/toolsets.js';

const operation = (text: string) => parse(text).definitions[0] as OperationDefinitionNode;

describe('granted sections', () => {
  it('are the fields marked @include(if: $grants<Toolset>), by their place in the answer (aliases, fragments)', () => {
    const sections = grantedSections(
      operation(`query Q($id: ID!, $grantsAnswers: Boolean = true, $grantsReportData: Boolean = true) {
      node(id: $id) {
        ... on AiVisibilityProject { id cited: sources @include(if: $grantsAnswers) { data { rows { domain } } } }
      }
      reportData(id: $id) @include(if: $grantsReportData) { data { reportId } }
      other @include(if: $id) { x }
    }`),
      'test',
    );
    expect(sections).toEqual([
      { path: 'node.cited', toolset: 'answers', variable: 'grantsAnswers' },
      { path: 'reportData', toolset: 'report_data', variable: 'grantsReportData' },
    ]);
    const visibilityOnly = consentOf(['mcp', 'mcp:visibility', 'mcp:report_data']);
    expect(grantVariables(sections, visibilityOnly)).toEqual({ grantsAnswers: false, grantsReportData: true });
    expect(withheldSections(sections, visibilityOnly)).toEqual({ 'node.cited': 'answers' });
    expect(withheldSections(sections, consentOf(['mcp', 'mcp:answers', 'mcp:report_data']))).toBeNull();
  });

  it('stop the start when a grant is not Boolean = true, names no toolset, or marks nothing', () => {
    const loading =
      (variable: string, directive = 'include') =>
      () =>
        grantedSections(
          operation(`query Q(${variable}) { a @${directive}(if: ${variable.split(':')[0]}) }`),
          'q.graphql',
        );
    expect(loading('$grantsAnswers: Boolean')).toThrow(/q.graphql: declare \$grantsAnswers: Boolean = true/);
    expect(loading('$grantsAnswers: Boolean! = true')).toThrow(/Boolean = true/);
    expect(loading('$grantsAnswers: Boolean = false')).toThrow(/Boolean = true/);
    expect(loading('$grantsEverything: Boolean = true')).toThrow(/names no toolset/);
    expect(loading('$grantsAnswers: Boolean = true', 'skip')).toThrow(/marks no section/);
    expect(loading('$grantsAnswers: Boolean = true')()).toEqual([
      { path: 'a', toolset: 'answers', variable: 'grantsAnswers' },
    ]);
  });
});
