// Every tool of the catalogue as a client sees it — its name, the toolset it declares, its
// title, description, input and output JSON Schema, annotations and view — against a committed
// file (snapshots/tools.json), so any change to what a model is shown is a reviewed diff. After
// an intended change: `npx vitest run test/mcp/tool-schemas.test.ts -u`, and read the diff.
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.js';
import { toolUiMeta } from '../../src/mcp/protocol/app-views.js';
import { listedTool, loadCatalogue } from '../../src/mcp/tools/catalogue.js';

export const TOOLS_SNAPSHOT = new URL('./snapshots/tools.json', import.meta.url);

describe('the tool catalogue', () => {
  it('is the reviewed one: each tool with its toolset and schemas', async () => {
    const tools = [...loadCatalogue(schema).values()].map((tool) => ({
      toolset: tool.toolset,
      ...('alsoNeeds' in tool && tool.alsoNeeds ? { alsoNeeds: tool.alsoNeeds } : {}),
      ...('adminOnly' in tool && tool.adminOnly ? { adminOnly: true } : {}),
      ...listedTool(tool),
      ...toolUiMeta(tool.name),
    }));
    await expect(`${JSON.stringify(tools, null, 2)}\n`).toMatchFileSnapshot(TOOLS_SNAPSHOT.pathname);
  });
});
