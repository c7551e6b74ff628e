// The operator CLI against the real database: each command in this process (runCli, what the
// executable runs), and as an operator runs it, a separate process, where exit codes, stdin and
// start-up are the point.
import { execFile } from 'node:child_process';
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/database.js';
import { cliEnv, HANG, REPOSITORY_ROOT, runInProcess, runSpawned, TSX } from '../support/cli.js';
import { connectDatabase, type Database } from '../../src/db/client.js';
import { newId } from '../../src/db/ids.js';
import { verifyPassword } from '../../src/sessions/passwords.js';
import { resetPassword } from '../../src/sessions/password-reset.js';
import { databaseLine } from '../../src/cli/context.js';

const run = promisify(execFile);
const root = REPOSITORY_ROOT;
const dir = path.join(root, 'test/.tmp', `cli-${process.pid}`);
// A test that starts processes gets room for a few HANGs (its own limit only catches other hangs).
const WITH_PROCESSES = 3 * HANG;
let url: string;
let database: Database;

const cli = (...args: string[]) => cliWith({}, ...args);
const cliWith = (env: Record<string, string>, ...args: string[]) => runInProcess({ ...cliEnv(url), ...env }, args);
const spawned = (...args: string[]) => runSpawned(cliEnv(url), args);
const spawnedWithStdin = (stdin: string, ...args: string[]) => runSpawned(cliEnv(url), args, stdin);
/** `users create` with the person's flags (`--email`, `--name`, `--workspace`, `--role`). */
const userCreate = (flags: { email: string; name: string; workspace: string; role: string }) => [
  'users',
  'create',
  ...Object.entries(flags).flatMap(([flag, value]) => [`--${flag}`, value]),
];

beforeAll(async () => {
  url = await createTestDatabase();
  database = connectDatabase(url, 2);
  mkdirSync(dir, { recursive: true });
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('operator CLI', () => {
  it(
    'creates a workspace, seeds it, creates, lists and revokes keys, all with --json',
    async () => {
      const created = await spawned(
        'workspaces',
        'create',
        'acme',
        '--plan',
        'pro',
        '--timezone',
        'Europe/Berlin',
        '--json',
      );
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ slug: 'acme', plan: 'pro', timezone: 'Europe/Berlin' });

      const seeded = await cli('seed', '--workspace', 'acme', '--days', '5', '--clients', '2', '--json');
      expect(JSON.parse(seeded.stdout)).toMatchObject({ clients: 2, reports: 4 });

      const key = JSON.parse(
        (await cli('keys', 'create', '--workspace', 'acme', '--name', 'ci', '--scopes', 'clients:read', '--json'))
          .stdout,
      );
      expect(key).toMatchObject({
        name: 'ci',
        scopes: ['clients:read'],
        expiresAt: null,
        secret: expect.stringMatching(/^sgb_live_/),
      });

      const listed = await cli('keys', 'list', '--workspace', 'acme', '--json');
      expect(listed.stdout).not.toContain(key.secret.split('.')[1]);
      expect(JSON.parse(listed.stdout)[0]).toMatchObject({ id: key.id, revokedAt: null });

      expect(JSON.parse((await cli('keys', 'revoke', key.id, '--json')).stdout)).toMatchObject({
        id: key.id,
        revokedAt: expect.any(String),
      });
      expect(JSON.parse((await cli('workspaces', 'set-plan', 'acme', 'scale', '--json')).stdout)).toEqual({
        slug: 'acme',
        plan: 'scale',
      });
    },
    WITH_PROCESSES,
  );

  it(
    'refuses bad input with a non-zero exit and a one-line error',
    async () => {
      const first = ['workspaces', 'create', 'Bad Slug', '--plan', 'pro'];
      for (const args of [
        first,
        ['workspaces', 'create', 'x2', '--plan', 'platinum'],
        ['workspaces', 'set-plan', 'nope', 'pro'],
        ['keys', 'create', '--workspace', 'acme', '--name', 'x', '--scopes', 'admin:write'],
        ['keys', 'create', '--workspace', 'acme', '--name', 'x', '--expires-at', 'tomorrow'],
        ['seed', '--workspace', 'acme', '--days', '0'],
        ['webhooks', 'create', '--workspace', 'acme', '--url', 'http://hooks.example.com/'],
        [
          'webhooks',
          'create',
          '--workspace',
          'acme',
          '--url',
          'https://hooks.example.com/',
          '--events',
          'scan.deleted',
        ],
        ['webhooks', 'secret', 'whe_nope'],
        ['webhooks', 'replay-failed', '--workspace', 'acme', '--since', 'yesterday'],
        ['signals', 'set-rule', '--project', 'prj_00000000000000000000', '--kind', 'mood_swing', '--threshold', '1'],
        // A threshold is read as a decimal is written: not a word, hexadecimal, padded or an exponent.
        ...['ten', '0x10', ' 5', '1e1'].map((threshold) => [
          'signals',
          'set-rule',
          '--project',
          'prj_00000000000000000000',
          '--kind',
          'visibility_drop',
          '--threshold',
          threshold,
        ]),
      ]) {
        // The first as its own process too: the exit status and stderr are the executable's.
        const result = await (args === first ? spawned : cli)(...args);
        expect(result.code, args.join(' ')).not.toBe(0);
        // At most the line naming the database (once opened), then the one-line error.
        const lines = result.stderr
          .trim()
          .split('\n')
          .filter((line) => !line.startsWith('database: '));
        expect(lines, args.join(' ')).toHaveLength(1);
        expect(lines[0]).toMatch(/^error: /);
        if (args[1] === 'set-rule' && args[5] === 'visibility_drop')
          expect(lines[0], args.join(' ')).toMatch(/threshold/);
      }
    },
    WITH_PROCESSES,
  );

  it('lets only owners and admins manage keys (--as)', async () => {
    const workspace = await database.prisma.workspace.findUniqueOrThrow({ where: { slug: 'acme' } });
    const member = await database.prisma.user.create({
      data: { id: newId('user'), email: 'member@acme.test', name: 'M' },
    });
    await database.prisma.membership.create({
      data: { id: newId('membership'), workspaceId: workspace.id, userId: member.id, role: 'member' },
    });
    const refused = await cli('keys', 'create', '--workspace', 'acme', '--name', 'x', '--as', 'member@acme.test');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('only owners and admins');
  });

  it(
    'manages webhook endpoints: create (secret shown), list without secrets, reveal, rotate, disable, ' +
      'enable, attempts, replays; all audited',
    async () => {
      const allowLoopback = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };
      const created = JSON.parse(
        (
          await cliWith(
            allowLoopback,
            'webhooks',
            'create',
            '--workspace',
            'acme',
            '--url',
            'http://127.0.0.1:9/hook',
            '--events',
            'signal.created',
            '--description',
            'ops',
            '--json',
          )
        ).stdout,
      );
      expect(created).toEqual({
        id: expect.stringMatching(/^whe_/),
        url: 'http://127.0.0.1:9/hook',
        eventTypes: ['signal.created'],
        enabled: true,
        secret: expect.stringMatching(/^whsec_/),
      });
      const listed = await cli('webhooks', 'list', '--workspace', 'acme', '--json');
      expect(listed.stdout).not.toContain(created.secret);
      expect(JSON.parse(listed.stdout)[0]).toMatchObject({ id: created.id, description: 'ops', enabled: true });
      expect(JSON.parse((await cli('webhooks', 'secret', created.id, '--json')).stdout)).toEqual({
        id: created.id,
        secret: created.secret,
      });
      const rotated = JSON.parse((await cli('webhooks', 'rotate-secret', created.id, '--json')).stdout);
      expect(rotated.secret).not.toBe(created.secret);
      expect(JSON.parse((await cli('webhooks', 'disable', created.id, '--json')).stdout)).toMatchObject({
        enabled: false,
      });
      expect(JSON.parse((await cli('webhooks', 'enable', created.id, '--json')).stdout)).toMatchObject({
        enabled: true,
      });
      expect(JSON.parse((await cli('webhooks', 'attempts', created.id, '--json')).stdout)).toEqual([]);
      const described = await cli(
        'webhooks',
        'create',
        '--workspace',
        'acme',
        '--url',
        'https://x.example/h',
        '--description',
        'd'.repeat(501),
      );
      expect([described.code, described.stderr]).toEqual([
        2,
        'error: description: a description is at most 500 characters.\n',
      ]);
      for (const limit of ['0', '1001', '2.5', 'many']) {
        const refused = await cli('webhooks', 'attempts', created.id, '--limit', limit);
        expect([refused.code, refused.stderr]).toEqual([2, 'error: --limit must be a whole number from 1 to 1000.\n']);
      }
      expect(
        JSON.parse(
          (await cli('webhooks', 'replay-failed', '--workspace', 'acme', '--since', '2026-01-01T00:00:00Z', '--json'))
            .stdout,
        ),
      ).toEqual({ replayed: 0 });
      const workspace = await database.prisma.workspace.findUniqueOrThrow({ where: { slug: 'acme' } });
      const actions = (
        await database.prisma.auditLogEntry.findMany({ where: { workspaceId: workspace.id, target: created.id } })
      )
        .map((entry) => entry.action)
        .sort();
      expect(actions).toEqual([
        'webhook_endpoint.created',
        'webhook_endpoint.disabled',
        'webhook_endpoint.enabled',
        'webhook_endpoint.secret_revealed',
        'webhook_endpoint.secret_rotated',
      ]);
      const stored = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: created.id } });
      expect(JSON.stringify(stored)).not.toContain(rotated.secret.slice(6));
    },
  );

  it(
    'creates users: a password from stdin (argon2id stored) or one generated and shown once; members join other ' +
      'workspaces',
    async () => {
      const fromStdin = await spawnedWithStdin(
        'a long enough password\n',
        ...userCreate({ email: 'Ann@Acme.test', name: 'Ann', workspace: 'acme', role: 'admin' }),
        '--password-stdin',
        '--json',
      );
      expect(fromStdin.code).toBe(0);
      expect(JSON.parse(fromStdin.stdout)).toMatchObject({ email: 'ann@acme.test', role: 'admin', hasPassword: true });
      expect(fromStdin.stdout).not.toContain('a long enough password');
      const stored = await database.prisma.user.findUniqueOrThrow({ where: { email: 'ann@acme.test' } });
      expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(stored.passwordHash!, 'a long enough password')).toBe(true);

      const generated = JSON.parse(
        (await cli(...userCreate({ email: 'bo@acme.test', name: 'Bo', workspace: 'acme', role: 'member' }), '--json'))
          .stdout,
      );
      expect(generated.password).toMatch(/^[A-Za-z0-9_-]{20}$/);
      const again = await cli(...userCreate({ email: 'bo@acme.test', name: 'Bo', workspace: 'acme', role: 'member' }));
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain('already a member');
      // Joining another workspace: the existing account as it is, its password neither replaced nor shown.
      const before = (await database.prisma.user.findUniqueOrThrow({ where: { email: 'bo@acme.test' } })).passwordHash;
      expect((await cli('workspaces', 'create', 'beta', '--plan', 'pro')).code).toBe(0);
      const joined = await cli(
        ...userCreate({ email: 'bo@acme.test', name: 'Bo', workspace: 'beta', role: 'member' }),
        '--json',
      );
      expect(joined.code, joined.stderr).toBe(0);
      expect(JSON.parse(joined.stdout)).toMatchObject({ email: 'bo@acme.test', existingAccount: true });
      expect(JSON.parse(joined.stdout).password).toBeUndefined();
      expect((await database.prisma.user.findUniqueOrThrow({ where: { email: 'bo@acme.test' } })).passwordHash).toBe(
        before,
      );
      expect(await verifyPassword(before!, generated.password)).toBe(true);
      const short = await spawnedWithStdin(
        'short',
        ...userCreate({ email: 'cy@acme.test', name: 'Cy', workspace: 'acme', role: 'member' }),
        '--password-stdin',
      );
      expect(short.code).not.toBe(0);
    },
    WITH_PROCESSES,
  );

  it('requires SSO for a workspace and sends a reset link, both audited', async () => {
    const on = await cli('workspaces', 'require-sso', 'acme', 'on', '--json');
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toEqual({ slug: 'acme', requireSso: true });
    expect((await database.prisma.workspace.findUniqueOrThrow({ where: { slug: 'acme' } })).requireSso).toBe(true);
    expect((await cli('workspaces', 'require-sso', 'acme', 'maybe')).code).toBe(2);
    expect((await cli('workspaces', 'require-sso', 'acme', 'off')).code).toBe(0);

    // No SMTP_URL: the link is printed for the operator to pass on, pointing at PORT.
    const reset = await cliWith(
      { PORT: '4555', SMTP_URL: '' },
      'users',
      'reset-password',
      '--email',
      'bo@acme.test',
      '--json',
    );
    expect(reset.code, reset.stderr).toBe(0);
    const printed = JSON.parse(reset.stdout);
    expect(printed).toMatchObject({
      email: 'bo@acme.test',
      sent: false,
      link: expect.stringMatching(/^http:\/\/localhost:4555\/app\/password\/reset\?token=[\w-]{43}$/),
    });
    expect(reset.stderr).toContain('warning: no server answers on http://localhost:4555');
    const bo = await database.prisma.user.findUniqueOrThrow({ where: { email: 'bo@acme.test' } });
    expect(await database.prisma.passwordReset.count({ where: { userId: bo.id, usedAt: null } })).toBe(1);
    await resetPassword(database.pool, {
      token: new URL(printed.link).searchParams.get('token')!,
      password: 'a brand new passphrase 42',
    });
    expect(await database.prisma.passwordReset.count({ where: { userId: bo.id, usedAt: null } })).toBe(0);
    const human = await cliWith(
      { SMTP_URL: '', PUBLIC_BASE_URL: 'https://signalboard.example.com' },
      'users',
      'reset-password',
      '--email',
      'bo@acme.test',
    );
    expect(human.stdout).toMatch(
      /^SMTP_URL is not set, so no mail was sent\. Pass this link to bo@acme\.test \(valid 30 minutes, once\):\nhttps:\/\/signalboard\.example\.com\/app\/password\/reset\?token=/,
    );
    expect(human.stderr).not.toContain('warning');
    expect(
      JSON.parse((await cli('users', 'reset-password', '--email', 'nobody@acme.test', '--json')).stdout),
    ).toMatchObject({ sent: false, link: null });
    const actions = (
      await database.prisma.auditLogEntry.findMany({
        where: { workspace: { slug: 'acme' }, action: { in: ['sso.require_set', 'password.reset_requested'] } },
      })
    ).map((entry) => entry.action);
    expect(actions.sort()).toEqual([
      'password.reset_requested',
      'password.reset_requested',
      'sso.require_set',
      'sso.require_set',
    ]);
  });

  it("sets a client's currency and moves its data version, audited; a made-up code is refused", async () => {
    const workspace = await database.prisma.workspace.findUniqueOrThrow({ where: { slug: 'acme' } });
    const client = await database.prisma.client.findFirstOrThrow({ where: { workspaceId: workspace.id } });
    const before = await database.pool.query('SELECT data_version FROM clients WHERE id = $1', [client.id]);
    const set = await cli('clients', 'set-currency', '--client', client.id, '--currency', 'chf', '--json');
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ id: client.id, currency: 'CHF' });
    const after = await database.pool.query('SELECT currency, data_version FROM clients WHERE id = $1', [client.id]);
    // Its data version moves, so a kept answer of its reports' data is computed again with the code.
    expect(after.rows[0]).toEqual({ currency: 'CHF', data_version: String(BigInt(before.rows[0].data_version) + 1n) });
    expect(await database.prisma.auditLogEntry.count({ where: { target: client.id, action: 'client.updated' } })).toBe(
      1,
    );
    for (const code of ['XYZ', 'EURO', '€']) {
      const refused = await cli('clients', 'set-currency', '--client', client.id, '--currency', code);
      expect(refused.code, code).not.toBe(0);
      expect(refused.stderr, code).toMatch(/not an ISO 4217 currency code/);
    }
  });

  it('lists signal rules with their defaults and sets one', async () => {
    const project = await database.prisma.aiProject.findFirstOrThrow({ where: { workspace: { slug: 'acme' } } });
    const rules = JSON.parse((await cli('signals', 'rules', '--project', project.id, '--json')).stdout);
    // The seed stores competitor_only_prompt switched off (demo answers name competitors by coin flip).
    expect(
      rules.map((rule: { kind: string; threshold: number; isDefault: boolean }) => [
        rule.kind,
        rule.threshold,
        rule.isDefault,
      ]),
    ).toEqual([
      ['visibility_drop', 10, true],
      ['share_of_voice_overtaken', 0, true],
      ['average_position_worse', 1, true],
      ['sentiment_negative', 0, true],
      ['owned_citation_share_drop', 10, true],
      ['competitor_only_prompt', 1, false],
    ]);
    const set = JSON.parse(
      (
        await cli(
          'signals',
          'set-rule',
          '--project',
          project.id,
          '--kind',
          'visibility_drop',
          '--threshold',
          '5',
          '--disabled',
          '--json',
        )
      ).stdout,
    );
    expect(set).toMatchObject({
      kind: 'visibility_drop',
      threshold: 5,
      enabled: false,
      isDefault: false,
      defaultThreshold: 10,
    });
    const human = await cli('signals', 'rules', '--project', project.id);
    expect(human.stdout).toMatch(/visibility_drop\s+off\s+threshold 5/);
  });

  it('manages prompts and project domains, audited, and ingests scans with runs all-or-nothing', async () => {
    const project = await database.prisma.aiProject.findFirstOrThrow({ where: { workspace: { slug: 'acme' } } });
    const added = JSON.parse(
      (
        await cli(
          'prompts',
          'add',
          '--project',
          project.id,
          '--text',
          'Best CLI, really?',
          '--topic',
          'cli',
          '--tags',
          'a,b',
          '--json',
        )
      ).stdout,
    );
    expect(added.added[0]).toMatchObject({
      text: 'Best CLI, really?',
      topic: 'cli',
      tags: ['a', 'b'],
      archivedAt: null,
    });
    const id = added.added[0].id;
    expect(
      JSON.parse(
        (await cli('prompts', 'add', '--project', project.id, '--text', 'Best CLI, really?', '--json')).stdout,
      ),
    ).toMatchObject({ added: [], existing: [{ id }] });
    expect(JSON.parse((await cli('prompts', 'tag', id, '--tags', 'c', '--json')).stdout)[0]).toMatchObject({
      topic: 'cli',
      tags: ['c'],
    });
    expect(JSON.parse((await cli('prompts', 'archive', id, '--json')).stdout)[0].archivedAt).not.toBeNull();
    expect((await cli('prompts', 'list', '--project', project.id)).stdout).not.toContain(id);
    expect((await cli('prompts', 'list', '--project', project.id, '--archived')).stdout).toContain(
      `${id}  [archived] Best CLI, really?`,
    );
    expect(JSON.parse((await cli('prompts', 'restore', id, '--json')).stdout)[0].archivedAt).toBeNull();
    const unknown = await cli('prompts', 'archive', 'pmt_00000000000000000000');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('no prompt pmt_00000000000000000000');

    const domains = JSON.parse(
      (
        await cli(
          'projects',
          'set-domains',
          '--project',
          project.id,
          '--domains',
          'acme.com,https://blog.acme.co.uk',
          '--competitor',
          `${project.competitors[0]}=rival.com`,
          '--json',
        )
      ).stdout,
    );
    expect(domains).toMatchObject({
      domains: ['acme.com', 'acme.co.uk'],
      competitorDomains: [{ name: project.competitors[0], domains: ['rival.com'] }],
    });
    const untracked = await cli(
      'projects',
      'set-domains',
      '--project',
      project.id,
      '--domains',
      'acme.com',
      '--competitor',
      'Nobody=x.com',
    );
    expect(untracked.stderr).toContain('competitor Nobody is not tracked');
    const audited = await database.prisma.auditLogEntry.findMany({
      where: { target: project.id, action: { startsWith: 'ai_' } },
      orderBy: { createdAt: 'asc' },
    });
    expect(audited.map((entry) => entry.action)).toEqual([
      'ai_prompt.added',
      'ai_prompt.updated',
      'ai_prompt.archived',
      'ai_prompt.restored',
      'ai_project.domains_set',
    ]);

    const runs = [
      {
        prompt: 'Best CLI, really?',
        answer: 'Acme, of course.',
        brandMentions: 1,
        totalMentions: 1,
        position: 1,
        sentiment: 'positive',
        citations: [{ url: 'https://acme.com/' }],
      },
    ];
    const line = (date: string, extra: object = {}) =>
      JSON.stringify({
        project: project.id,
        date,
        model: project.models[0],
        locale: project.locales[0],
        runs,
        ...extra,
      });
    writeFileSync(path.join(dir, 'runs.ndjson'), [line('2020-01-01'), line('2020-01-02', { totalRuns: 9 })].join('\n'));
    const refused = await cli('ingest', 'scans', path.join(dir, 'runs.ndjson'), '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      accepted: 0,
      rejected: 1,
      problems: [{ line: 2, message: expect.stringContaining('totalRuns: sent 9, the runs give 1') }],
    });
    const skipped = await cli('ingest', 'scans', path.join(dir, 'runs.ndjson'), '--skip-invalid', '--json');
    expect(JSON.parse(skipped.stdout)).toMatchObject({ accepted: 1, rejected: 1 });
    expect(
      (
        await database.pool.query("SELECT text FROM ai_answers WHERE project_id = $1 AND date = '2020-01-01'", [
          project.id,
        ])
      ).rows,
    ).toEqual([{ text: 'Acme, of course.' }]);
  });

  it('validates report definitions and ingests NDJSON all-or-nothing', async () => {
    const client = await database.prisma.client.findFirstOrThrow({ where: { workspace: { slug: 'acme' } } });
    writeFileSync(
      path.join(dir, 'bad.json'),
      JSON.stringify({
        widgets: [{ id: 'a', type: 'kpi', title: 'A', provider: 'google_ads', metrics: ['sessions'] }],
        dateConfig: { datePreset: 'last_7_days', comparePreset: 'none' },
      }),
    );
    const bad = await cli('reports', 'create', '--workspace', 'acme', '--file', path.join(dir, 'bad.json'));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('google_ads has no metric "sessions"');
    writeFileSync(
      path.join(dir, 'good.json'),
      JSON.stringify({
        widgets: [{ id: 'a', type: 'kpi', title: 'A', provider: 'google_ads', metrics: ['clicks', 'ctr'] }],
        dateConfig: { datePreset: 'last_7_days', comparePreset: 'none' },
      }),
    );
    const good = JSON.parse(
      (
        await cli(
          'reports',
          'create',
          '--workspace',
          'acme',
          '--client',
          client.id,
          '--file',
          path.join(dir, 'good.json'),
          '--json',
        )
      ).stdout,
    );
    expect(good.id).toMatch(/^rep_/);

    const lines = [
      JSON.stringify({ client: client.id, provider: 'google_ads', date: '2021-01-01', metrics: { clicks: 1 } }),
      '{"client":',
    ];
    writeFileSync(path.join(dir, 'facts.ndjson'), lines.join('\n'));
    const refused = await cli('ingest', 'metrics', path.join(dir, 'facts.ndjson'), '--json');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ accepted: 0, rejected: 1, problems: [{ line: 2 }] });
    const skipped = await cli('ingest', 'metrics', path.join(dir, 'facts.ndjson'), '--skip-invalid', '--json');
    expect(JSON.parse(skipped.stdout)).toMatchObject({ accepted: 1, rejected: 1 });
  });
});

describe('the database the CLI uses', () => {
  it('is named on stderr, without its password', async () => {
    const listed = await cli('keys', 'list', '--workspace', 'acme', '--json');
    const database = new URL(url);
    expect(listed.stderr.trim()).toBe(
      `database: postgresql://${database.username}@${database.host}${database.pathname} (DATABASE_URL)`,
    );
    expect(listed.stderr).not.toContain(`:${database.password}@`);
    JSON.parse(listed.stdout);
  });

  it("says whether it started the embedded cluster or shares the server's, and on which port", () => {
    const settings = { EMBEDDED_PG_DIR: '.data/postgres', EMBEDDED_PG_PORT: 54329 };
    const embedded = (port: number, shared: boolean) => ({
      url: `postgresql://signalboard:signalboard@127.0.0.1:${port}/signalboard`,
      embedded: { url: '', port, shared, stop: async () => {} },
    });
    expect(databaseLine(embedded(54329, false), settings)).toBe(
      'database: embedded PostgreSQL in .data/postgres on 127.0.0.1:54329 (started for this command; no server ' +
        'runs it)',
    );
    expect(databaseLine(embedded(54329, true), settings)).toBe(
      "database: embedded PostgreSQL in .data/postgres on 127.0.0.1:54329 (the running server's)",
    );
    expect(databaseLine(embedded(55432, true), settings)).toBe(
      "database: embedded PostgreSQL in .data/postgres on 127.0.0.1:55432 (the running server's; EMBEDDED_PG_PORT " +
        'here says 54329)',
    );
  });
});

describe('server start-up', () => {
  it(
    'refuses bad configuration with a message naming the variable',
    async () => {
      const result = await run(TSX, ['src/server.ts'], {
        cwd: root,
        timeout: HANG,
        env: { ...process.env, PORT: 'eighty', DATABASE_URL: url },
      }).catch((error) => error);
      expect(result.code).toBe(78);
      expect(result.stderr).toContain('PORT');
    },
    WITH_PROCESSES,
  );
});
