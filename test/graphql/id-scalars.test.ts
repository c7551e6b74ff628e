// The id scalars refuse a malformed id while the arguments are read, naming the kind in plain
// English ("an answer id", "a project id") and the pattern it must match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from '../support/app.js';
import { postGraphQL } from '../support/graphql.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('id scalars', () => {
  it('refuse a malformed id with its kind and pattern', async () => {
    const { key } = await createKeyedWorkspace(t.database);
    const query =
      'query($id: ProjectId!, $answerId: AnswerId!) { aiVisibilityAnswer(id: $id, answerId: $answerId) { meta } }';
    const refusal = async (variables: Record<string, unknown>) =>
      (await postGraphQL(t.app, key.secret, query, variables)).errors[0].message as string;
    const project = `prj_${'a'.repeat(20)}`;
    expect(await refusal({ id: project, answerId: 'x' })).toContain(
      '"x" is not an answer id (expected ^ans_[0-9A-Za-z]{20}$)',
    );
    expect(await refusal({ id: 'x', answerId: `ans_${'a'.repeat(20)}` })).toContain(
      '"x" is not a project id (expected ^prj_[0-9A-Za-z]{20}$)',
    );
    expect(await refusal({ id: project, answerId: 7 })).toMatch(/an answer id/);
  });
});
