import { afterAll, beforeAll } from 'vitest';
import { createKeyedWorkspace, createTestApp, type TestApp } from './app.js';

/**
 * A test app and the API key of a fresh workspace in it, for the enclosing describe block (or file): built before
 * its tests, closed after them. Read `.t` and `.key` inside the tests.
 */
export function useKeyedApp(env: Record<string, string> = {}) {
  const state = {} as { t: TestApp; key: string };
  beforeAll(async () => {
    state.t = await createTestApp(env);
    state.key = (await createKeyedWorkspace(state.t.database)).key.secret;
  });
  afterAll(() => state.t?.close());
  return state;
}
