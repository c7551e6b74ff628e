// Operator CLI: `npm run cli -- <command>`. Every command has --json; bad input exits
// non-zero with a one-line error.
import '../config/node-version.js';
import { readFile, writeFile } from 'node:fs/promises';
import { Command, CommanderError } from 'commander';
import { parseConfig, type Config } from '../config/index.js';
import { openDatabase, type ResolvedDatabase } from '../db/bootstrap.js';
import { INVALIDATION_CHANNEL } from '../auth/invalidation.js';
import { createApiKey, listApiKeys, parseScopes, revokeApiKey } from '../auth/key-management.js';
import { createWorkspace, findWorkspace, setPlan } from '../workspaces/service.js';
import { UsageError } from '../errors/index.js';
import { seedWorkspace } from '../demo/seed.js';
import { createReport } from '../reports/report-management.js';
import { ingest, type IngestKind } from '../ingest/service.js';
import { progressBar } from './progress.js';
import { resolveSecretBox } from '../secrets/app-secret-key.js';
import { createEndpoint, listAttempts, listEndpoints, parseEventTypes, replayEvent, replayFailed, revealSecret, rotateSecret, setEnabled, type WebhookDeps } from '../webhooks/endpoints.js';
import { listRules, setRule } from '../signals/rule-management.js';
import type { Actor } from '../workspaces/actor.js';
import { addMember, generatePassword } from '../workspaces/members.js';
import { setRequireSso } from '../sso/connections.js';
import { requestPasswordReset } from '../sessions/password-reset.js';
import { createMailer } from '../mail/mailer.js';
import { createLogger } from '../config/logger.js';

interface JsonOption {
  json?: boolean;
}

let config: Config;
let opened: ResolvedDatabase | null = null;

async function db() {
  opened ??= await openDatabase(config);
  return opened.database;
}

async function webhookDeps(): Promise<WebhookDeps> {
  const { prisma, pool } = await db();
  return { prisma, pool, box: resolveSecretBox(config), policy: { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS } };
}

const AS_OPTION = ['--as <email>', 'the acting user; must be an owner or admin'] as const;
const actorOf = (options: { as?: string }): Actor => ({ email: options.as ?? null });

async function notify(target: string) {
  if (config.REDIS_URL) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(config.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    await redis.publish(INVALIDATION_CHANNEL, target);
    await redis.quit();
  } else {
    await (await db()).pool.query('SELECT pg_notify($1, $2)', [INVALIDATION_CHANNEL, target]);
  }
}

function output(options: JsonOption, value: unknown, human: string) {
  process.stdout.write(options.json ? `${JSON.stringify(value, null, 2)}\n` : `${human}\n`);
}

const program = new Command('signalboard').description('Signalboard operator CLI').exitOverride();

const workspaces = program.command('workspaces').description('Create workspaces and change plans');
workspaces
  .command('create <slug>')
  .requiredOption('--plan <plan>', 'free, starter, pro, agency or scale')
  .option('--name <name>')
  .option('--timezone <tz>', 'IANA time zone', 'UTC')
  .option('--json')
  .action(async (slug: string, options: { plan: string; name?: string; timezone: string } & JsonOption) => {
    const { prisma } = await db();
    const workspace = await createWorkspace(prisma, { slug, plan: options.plan, timezone: options.timezone, ...(options.name ? { name: options.name } : {}) });
    output(options, workspace, `Created workspace ${workspace.slug} (${workspace.id}) on ${workspace.plan}.`);
  });
workspaces
  .command('set-plan <slug> <plan>')
  .option('--json')
  .action(async (slug: string, plan: string, options: JsonOption) => {
    const updated = await setPlan((await db()).prisma, notify, slug, plan);
    output(options, { slug: updated.slug, plan: updated.plan }, `Workspace ${updated.slug} is now on ${updated.plan}.`);
  });

program
  .command('seed')
  .requiredOption('--workspace <slug>')
  .option('--days <n>', 'days of provider facts', '430')
  .option('--clients <n>', 'number of clients', '6')
  .option('--json')
  .action(async (options: { workspace: string; days: string; clients: string } & JsonOption) => {
    const days = Number(options.days);
    const clients = Number(options.clients);
    if (!Number.isInteger(days) || days < 1 || days > 3650) throw new UsageError('--days must be a whole number from 1 to 3650');
    if (!Number.isInteger(clients) || clients < 1 || clients > 1000) throw new UsageError('--clients must be a whole number from 1 to 1000');
    const { prisma, pool } = await db();
    const workspace = await findWorkspace(prisma, options.workspace);
    const bar = progressBar('seeding');
    const summary = await seedWorkspace(prisma, pool, { workspaceId: workspace.id, days, clients, onProgress: bar.update });
    bar.finish();
    output(options, summary, `Seeded ${workspace.slug}: ${summary.clients} clients, ${summary.reports} reports, ${summary.facts} facts, ${summary.scans} scans.`);
  });

program
  .command('reports')
  .description('Manage reports')
  .command('create')
  .requiredOption('--workspace <slug>')
  .requiredOption('--file <definition.json>')
  .option('--client <id>')
  .option('--name <name>', 'report name', 'Untitled report')
  .option('--json')
  .action(async (options: { workspace: string; file: string; client?: string; name: string } & JsonOption) => {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(options.file, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read ${options.file}: ${(error as Error).message}`);
    }
    const { prisma } = await db();
    const workspace = await findWorkspace(prisma, options.workspace);
    const report = await createReport(prisma, { workspaceId: workspace.id, clientId: options.client ?? null, name: options.name, definition: raw, actor: { email: null } });
    output(options, { id: report.id, name: report.name, clientId: report.clientId }, `Created report ${report.id}.`);
  });

const keys = program.command('keys').description('API keys');
keys
  .command('create')
  .requiredOption('--workspace <slug>')
  .requiredOption('--name <name>')
  .option('--scopes <list>', 'comma-separated: clients:read,reports:read,ai_visibility:read (default: all)')
  .option('--expires-at <iso>', 'ISO 8601 date-time after which the key stops working')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (options: { workspace: string; name: string; scopes?: string; expiresAt?: string; as?: string } & JsonOption) => {
    const { prisma } = await db();
    const workspace = await findWorkspace(prisma, options.workspace);
    const expiresAt = options.expiresAt ? new Date(options.expiresAt) : null;
    if (options.expiresAt && (Number.isNaN(expiresAt!.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(options.expiresAt))) throw new UsageError('--expires-at must be an ISO 8601 date-time');
    const key = await createApiKey(prisma, { workspaceId: workspace.id, name: options.name, scopes: parseScopes(options.scopes), expiresAt, actor: actorOf(options) });
    output(options, key, `Created API key ${key.id} (${key.scopes.join(', ')}). The secret is shown only now:\n${key.secret}`);
  });
keys
  .command('list')
  .requiredOption('--workspace <slug>')
  .option('--json')
  .action(async (options: { workspace: string } & JsonOption) => {
    const { prisma } = await db();
    const list = await listApiKeys(prisma, (await findWorkspace(prisma, options.workspace)).id);
    const state = (key: (typeof list)[number]) => (key.revokedAt ? 'revoked' : key.expiresAt && key.expiresAt < new Date() ? 'expired' : 'active');
    output(options, list, list.map((key) => `${key.id}  ${state(key).padEnd(7)}  ${key.name}  [${key.scopes.join(', ')}]`).join('\n') || 'No keys.');
  });
keys
  .command('revoke <keyId>')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (keyId: string, options: { as?: string } & JsonOption) => {
    const revoked = await revokeApiKey((await db()).prisma, notify, keyId, actorOf(options));
    output(options, revoked, `Revoked ${revoked.id}.`);
  });

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

workspaces
  .command('require-sso <slug> <state>')
  .description('on: members whose address is in a verified domain must sign in with SSO (owners keep their password)')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (slug: string, state: string, options: { as?: string } & JsonOption) => {
    if (state !== 'on' && state !== 'off') throw new UsageError('the state is on or off');
    const { prisma } = await db();
    const workspace = await findWorkspace(prisma, slug);
    const result = await setRequireSso(prisma, { workspaceId: workspace.id, enabled: state === 'on', actor: actorOf(options) });
    output(options, { slug, ...result }, `Single sign-on is ${result.requireSso ? 'required' : 'optional'} in ${slug}.`);
  });

const users = program.command('users').description('People who sign in to the web app');
users
  .command('reset-password')
  .description('sends the person a single-use reset link (logged instead when SMTP_URL is unset outside production)')
  .requiredOption('--email <email>')
  .option('--json')
  .action(async (options: { email: string } & JsonOption) => {
    const { pool } = await db();
    const origin = config.PUBLIC_BASE_URL ? new URL(config.PUBLIC_BASE_URL).origin : `http://localhost:${config.PORT}`;
    await requestPasswordReset({ pool, mail: createMailer(config, createLogger(config)), origin }, { email: options.email, address: 'cli' });
    output(options, { email: options.email, requested: true }, `If ${options.email} has an account, a reset link is on its way (valid 30 minutes, once).`);
  });
users
  .command('create')
  .requiredOption('--email <email>')
  .requiredOption('--name <name>')
  .requiredOption('--workspace <slug>')
  .requiredOption('--role <role>', 'owner, admin or member')
  .option('--password-stdin', 'read the password from standard input (otherwise one is generated and shown once)')
  .option('--json')
  .action(async (options: { email: string; name: string; workspace: string; role: string; passwordStdin?: boolean } & JsonOption) => {
    const password = options.passwordStdin ? await readStdin() : generatePassword();
    const { prisma } = await db();
    const workspace = await findWorkspace(prisma, options.workspace);
    const member = await addMember(prisma, { workspaceId: workspace.id, email: options.email, name: options.name, role: options.role, password });
    const shown = options.passwordStdin ? {} : { password };
    output(options, { ...member, ...shown }, `Added ${member.email} to ${workspace.slug} as ${member.role}.${options.passwordStdin ? '' : ` Password (shown once): ${password}`}`);
  });

const ingestCommand = program.command('ingest').description('Import provider facts or AI-visibility scans from NDJSON');
for (const kind of ['metrics', 'scans'] as const satisfies IngestKind[]) {
  ingestCommand
    .command(`${kind} <file>`)
    .option('--skip-invalid', 'import the valid lines even when some are invalid')
    .option('--json')
    .action(async (file: string, options: { skipInvalid?: boolean } & JsonOption) => {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
      }
      const bar = progressBar(`ingesting ${kind}`);
      const summary = await ingest((await db()).pool, kind, text, { skipInvalid: options.skipInvalid ?? false, onProgress: bar.update });
      bar.finish();
      const refused = summary.problems.length > 0 && !options.skipInvalid;
      output(
        options,
        summary,
        [...summary.problems.slice(0, 50).map((p) => `line ${p.line}: ${p.message}`), `accepted ${summary.accepted}, replaced ${summary.replaced}${summary.unchanged === undefined ? '' : `, unchanged ${summary.unchanged}`}, rejected ${summary.rejected}${refused ? ' — nothing imported (use --skip-invalid to import the valid lines)' : ''}`].join('\n'),
      );
      if (refused) process.exitCode = 1;
    });
}

const webhooks = program.command('webhooks').description('Webhook endpoints, their secrets, attempts and replays (pro plans and above)');
webhooks
  .command('create')
  .requiredOption('--workspace <slug>')
  .requiredOption('--url <url>', 'https URL that receives POSTed events')
  .option('--events <list>', 'comma-separated: scan.completed,signal.created (default: all)')
  .option('--description <text>')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (options: { workspace: string; url: string; events?: string; description?: string; as?: string } & JsonOption) => {
    const deps = await webhookDeps();
    const workspace = await findWorkspace(deps.prisma, options.workspace);
    const endpoint = await createEndpoint(deps, { workspaceId: workspace.id, url: options.url, eventTypes: parseEventTypes(options.events), description: options.description ?? null, actor: actorOf(options) });
    const { id, url, eventTypes, enabled, secret } = endpoint;
    output(options, { id, url, eventTypes, enabled, secret }, `Created webhook endpoint ${id} for ${eventTypes.join(', ')}. Its signing secret (also readable later with \`webhooks secret ${id}\`):\n${secret}`);
  });
webhooks
  .command('list')
  .requiredOption('--workspace <slug>')
  .option('--json')
  .action(async (options: { workspace: string } & JsonOption) => {
    const deps = await webhookDeps();
    const list = await listEndpoints(deps, (await findWorkspace(deps.prisma, options.workspace)).id);
    output(options, list, list.map((e) => `${e.id}  ${e.enabled ? 'enabled ' : 'disabled'}  ${e.url}  [${e.eventTypes.join(', ')}]${e.disabledReason && !e.enabled ? `  (${e.disabledReason})` : ''}`).join('\n') || 'No webhook endpoints.');
  });
/** One declaration per command that acts on one endpoint as an owner/admin (or the operator). */
function endpointCommand<T>(name: string, run: (deps: WebhookDeps, endpointId: string, actor: Actor) => Promise<T>, human: (result: T) => string) {
  webhooks
    .command(`${name} <endpointId>`)
    .option(...AS_OPTION)
    .option('--json')
    .action(async (endpointId: string, options: { as?: string } & JsonOption) => {
      const result = await run(await webhookDeps(), endpointId, actorOf(options));
      output(options, result, human(result));
    });
}
endpointCommand('secret', revealSecret, (revealed) => revealed.secret);
endpointCommand('enable', (deps, id, actor) => setEnabled(deps, id, true, actor), (endpoint) => `${endpoint.id} is enabled: it receives events created from now on.`);
endpointCommand('disable', (deps, id, actor) => setEnabled(deps, id, false, actor), (endpoint) => `${endpoint.id} is disabled; its pending deliveries are marked failed (replay them later).`);
endpointCommand('rotate-secret', rotateSecret, (rotated) => `New secret for ${rotated.id} (the previous one also signs until ${rotated.previousSecretExpiresAt}):\n${rotated.secret}`);
webhooks
  .command('attempts <endpointId>')
  .option('--limit <n>', 'newest attempts to show (1-1000)', '100')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (endpointId: string, options: { limit: string; as?: string } & JsonOption) => {
    const limit = Number(options.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit must be a whole number from 1 to 1000');
    const attempts = await listAttempts(await webhookDeps(), endpointId, actorOf(options), limit);
    output(
      options,
      attempts,
      attempts.map((a) => `${a.createdAt.toISOString()}  ${a.eventId}  #${a.attempt}  ${a.responseStatus ?? '---'}  ${a.latencyMs} ms  ${a.error ?? 'ok'}${a.nextAttemptAt ? `  next ${a.nextAttemptAt.toISOString()}` : ''}`).join('\n') || 'No attempts yet.',
    );
  });
webhooks
  .command('replay <eventId>')
  .option('--endpoint <id>', 'only to this endpoint (default: every enabled endpoint subscribed to the event type)')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (eventId: string, options: { endpoint?: string; as?: string } & JsonOption) => {
    const replayed = await replayEvent(await webhookDeps(), eventId, options.endpoint ?? null, actorOf(options));
    output(options, replayed, `Replaying ${replayed.eventId} to ${replayed.endpoints.length} endpoint(s) with the same webhook-id.`);
  });
webhooks
  .command('replay-failed')
  .requiredOption('--workspace <slug>')
  .requiredOption('--since <iso>', 'deliveries that failed at or after this time')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (options: { workspace: string; since: string; as?: string } & JsonOption) => {
    if (!/^\d{4}-\d{2}-\d{2}/.test(options.since)) throw new UsageError('--since must be an ISO 8601 time');
    const deps = await webhookDeps();
    const workspace = await findWorkspace(deps.prisma, options.workspace);
    const result = await replayFailed(deps, workspace.id, new Date(options.since), actorOf(options));
    output(options, result, `Replaying ${result.replayed} failed deliveries with their original webhook-ids.`);
  });

const signals = program.command('signals').description('Signal rules of AI-visibility projects');
signals
  .command('rules')
  .requiredOption('--project <id>')
  .option('--json')
  .action(async (options: { project: string } & JsonOption) => {
    const rules = await listRules((await db()).prisma, options.project);
    output(options, rules, rules.map((r) => `${r.kind.padEnd(26)} ${r.enabled ? 'on ' : 'off'}  threshold ${r.threshold}${r.isDefault ? ' (default)' : ''}  — fires when ${r.meaning}`).join('\n'));
  });
signals
  .command('set-rule')
  .requiredOption('--project <id>')
  .requiredOption('--kind <kind>')
  .requiredOption('--threshold <n>')
  .option('--disabled', 'keep the threshold but stop the rule from firing')
  .option(...AS_OPTION)
  .option('--json')
  .action(async (options: { project: string; kind: string; threshold: string; disabled?: boolean; as?: string } & JsonOption) => {
    const threshold = Number(options.threshold);
    if (options.threshold.trim() === '' || Number.isNaN(threshold)) throw new UsageError('--threshold must be a number');
    const rule = await setRule((await db()).prisma, { projectId: options.project, kind: options.kind, threshold, enabled: !options.disabled, actor: actorOf(options) });
    output(options, rule, `${rule.kind} is ${rule.enabled ? 'on' : 'off'} with threshold ${rule.threshold}.`);
  });

program
  .command('db')
  .command('migrate')
  .option('--json')
  .action(async (options: JsonOption) => {
    opened ??= await openDatabase(config);
    const result = opened.migrations;
    output(options, result, `Migrations: ${result.applied.length} applied, ${result.alreadyApplied.length} already applied.`);
  });

program
  .command('schema')
  .command('print')
  .option('--out <file>')
  .action(async (options: { out?: string }) => {
    const { printedSchema } = await import('../graphql/schema.js');
    const sdl = `${printedSchema()}\n`;
    if (options.out) await writeFile(options.out, sdl);
    else process.stdout.write(sdl);
  });

program
  .command('openapi')
  .command('print')
  .option('--out <file>')
  .option('--base-url <url>', 'public base URL for servers[0]')
  .action(async (options: { out?: string; baseUrl?: string }) => {
    const [{ schema }, { v1OpenApiDocument, v1Schema }] = await Promise.all([import('../graphql/schema.js'), import('../rest/sofa.js')]);
    const text = `${JSON.stringify(v1OpenApiDocument(v1Schema(schema), options.baseUrl ?? config.PUBLIC_BASE_URL), null, 2)}\n`;
    if (options.out) await writeFile(options.out, text);
    else process.stdout.write(text);
  });

async function run(): Promise<number> {
  let code = 0;
  try {
    config = parseConfig({ LOG_LEVEL: 'silent', ...process.env });
    await program.parseAsync(process.argv);
    code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      code = error.exitCode === 0 ? 0 : 2;
    } else {
      process.stderr.write(`error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
      code = error instanceof UsageError ? 2 : 1;
    }
  } finally {
    if (opened) {
      await opened.database.close();
      await opened.embedded?.stop();
    }
  }
  return code;
}

// An explicit exit: a library's exit hook must not turn a failure into status 0.
void run().then((code) => process.exit(code));
