// Settings actions for an AI-visibility project's prompts and domains.
import { commandInput } from '../errors/command-input.js';
import { listField, type FormFields } from '../http/forms.js';
import {
  ADD_PROMPTS_INPUT,
  addPrompts,
  PROMPT_IDS_INPUT,
  promptsToAdd,
  UPDATE_PROMPTS_INPUT,
  listPrompts,
  parseCompetitorDomains,
  setProjectDomains,
  setPromptsArchived,
  updatePrompts,
} from '../ai-visibility/index.js';
import { blankAsAbsent, ID, type SettingsAction, type SettingsCall, type SettingsDeps } from './action.js';

/** One entry per line of a text area, or the items of a JSON list (prompt texts may hold commas). */
function linesField(fields: FormFields, name: string): string[] {
  const value = fields[name];
  const lines = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\r?\n/) : [];
  return lines.map((line) => line.trim()).filter(Boolean);
}

export function promptActions(deps: SettingsDeps): SettingsAction[] {
  return [...promptListActions(deps), ...promptChangeActions(deps)];
}

/** A project's prompts: listed and added. */
function promptListActions({ prisma }: SettingsDeps): SettingsAction[] {
  return [
    {
      method: 'GET',
      path: `/projects/${ID}/prompts`,
      run: async (call) => ({
        data: await listPrompts(prisma, {
          projectId: call.params[0]!,
          actor: call.actor,
          includeArchived: new URL(call.request.url).searchParams.get('includeArchived') === 'true',
        }),
      }),
    },
    {
      method: 'POST',
      path: `/projects/${ID}/prompts`,
      run: async (call) => {
        const input = commandInput(ADD_PROMPTS_INPUT, {
          projectId: call.params[0]!,
          texts: linesField(call.fields, 'texts'),
          topic: blankAsAbsent(call.fields.topic),
          tags: listField(call.fields, 'tags') ?? undefined,
        });
        const result = await addPrompts(prisma, { ...promptsToAdd(input), actor: call.actor });
        return {
          data: result,
          notice: {
            kind: 'ok',
            title:
              `${result.added.length} prompt(s) added` +
              (result.existing.length ? `; ${result.existing.length} already tracked.` : '.'),
          },
        };
      },
    },
  ];
}

/** Prompts changed in bulk (archived, restored, retopicked, retagged), and a project's domains. */
function promptChangeActions({ prisma }: SettingsDeps): SettingsAction[] {
  return [
    ...(['archive', 'restore'] as const).map((verb) => ({
      method: 'POST' as const,
      path: `/prompts/${verb}`,
      run: async (call: SettingsCall) => {
        const input = commandInput(PROMPT_IDS_INPUT, { promptIds: listField(call.fields, 'promptIds') ?? [] });
        const prompts = await setPromptsArchived(prisma, { ...input, archived: verb === 'archive', actor: call.actor });
        return { data: prompts, notice: { kind: 'ok' as const, title: `${prompts.length} prompt(s) ${verb}d.` } };
      },
    })),
    {
      method: 'POST',
      path: '/prompts/update',
      run: async (call) => {
        const input = commandInput(UPDATE_PROMPTS_INPUT, {
          promptIds: listField(call.fields, 'promptIds') ?? [],
          topic: call.fields.topic === undefined ? undefined : (blankAsAbsent(call.fields.topic) ?? null),
          tags: call.fields.tags === undefined ? undefined : (listField(call.fields, 'tags') ?? []),
        });
        const prompts = await updatePrompts(prisma, { ...input, actor: call.actor });
        return { data: prompts, notice: { kind: 'ok', title: `${prompts.length} prompt(s) updated.` } };
      },
    },
    {
      method: 'POST',
      path: `/projects/${ID}/domains`,
      run: async (call) => {
        const competitorDomains =
          call.fields.competitors === undefined
            ? undefined
            : linesField(call.fields, 'competitors').map(parseCompetitorDomains);
        const result = await setProjectDomains(prisma, {
          projectId: call.params[0]!,
          domains: listField(call.fields, 'domains') ?? [],
          competitorDomains,
          actor: call.actor,
        });
        return { data: result, notice: { kind: 'ok', title: `Domains of ${result.projectId} saved.` } };
      },
    },
  ];
}
