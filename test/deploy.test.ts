// The deployment files: the Dockerfile and the compose file are read and held to what the
// docs/operating.md promises (multi-stage, Node 24, production dependencies only, an unprivileged user, a
// health check; two API instances, a worker, PostgreSQL, Redis and Prometheus scraping the
// metrics ports). Where a Docker engine answers, the image is built too.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { imageNodeOptions } from './support/docker-image.js';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** Dockerfile instructions (continuation lines joined, comments dropped), per stage. */
function dockerStages(text: string) {
  const instructions = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const stages: { from: string; instructions: string[] }[] = [];
  for (const line of instructions) {
    const [keyword] = line.split(/\s+/);
    if (keyword!.toUpperCase() === 'FROM') stages.push({ from: line, instructions: [] });
    else stages.at(-1)!.instructions.push(line);
  }
  return stages;
}

describe('Dockerfile', () => {
  const stages = dockerStages(read('Dockerfile'));
  const runtime = stages.at(-1)!;
  const has = (pattern: RegExp) => runtime.instructions.some((line) => pattern.test(line));

  it('builds in one stage and runs Node 24 in another, with production dependencies only', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage.from).toMatch(/^FROM node:24\b/);
    expect(stages[0]!.instructions).toEqual(expect.arrayContaining([expect.stringMatching(/^RUN npm run build/)]));
    expect(has(/^RUN npm ci --omit=dev/)).toBe(true);
    expect(has(/^COPY --from=build \/app\/dist/)).toBe(true);
  });

  it('runs as an unprivileged user, checks its health, and starts the compiled server', () => {
    const user = runtime.instructions.find((line) => /^USER /.test(line));
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)\b/);
    expect(has(/^HEALTHCHECK .*\/healthz/)).toBe(true);
    expect(runtime.instructions.at(-1)).toBe('CMD ["node", "dist/server.js"]');
    // Everything the compiled server reads at run time is in the image.
    expect(has(/^COPY graphql /)).toBe(true);
    expect(has(/^COPY prisma /)).toBe(true);
    // The views' sources, bundled on first use.
    expect(has(/^COPY web /)).toBe(true);
  });

  it('sets the heap policy the benchmarks measure, as one NODE_OPTIONS line the harness reads', () => {
    expect(has(/^ENV NODE_OPTIONS="--max-semi-space-size=16 --v8-pool-size=2"$/)).toBe(true);
    expect(imageNodeOptions(read('Dockerfile'))).toBe('--max-semi-space-size=16 --v8-pool-size=2');
    expect(imageNodeOptions('FROM node:24\nENV A=1 NODE_OPTIONS="--a --b" C=2\n')).toBe('--a --b');
    expect(imageNodeOptions('FROM node:24\n# NODE_OPTIONS=--nope\n')).toBe('');
  });

  const engine = spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  it.skipIf(!engine)(
    'builds where a Docker engine answers',
    () => {
      const build = spawnSync('docker', ['build', '-q', '-t', 'signalboard:test', root], {
        encoding: 'utf8',
        timeout: 600_000,
      });
      expect(build.status, build.stderr).toBe(0);
    },
    700_000,
  );
});

describe('compose.yaml', () => {
  // Compose applies YAML merge keys (<<: *anchor), as the yaml package does when asked.
  const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, any> };
  const prometheus = parse(read('deploy/prometheus.yml')) as {
    scrape_configs: { static_configs: { targets: string[] }[] }[];
  };

  it('runs PostgreSQL, Redis, two API instances, a dedicated worker and Prometheus', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'api-1',
      'api-2',
      'postgres',
      'prometheus',
      'redis',
      'worker',
    ]);
    for (const name of ['api-1', 'api-2']) {
      const api = compose.services[name];
      expect(api.build).toBe('.');
      expect(api.environment).toMatchObject({
        REDIS_URL: expect.stringMatching(/^redis:\/\//),
        DATABASE_URL: expect.stringMatching(/^postgres:\/\//),
        WEBHOOK_WORKER: 'false',
      });
      expect(api.environment.APP_SECRET_KEY).toMatch(/APP_SECRET_KEY/);
    }
    expect(compose.services.worker.command).toEqual(['node', 'dist/webhooks/worker-main.js']);
    expect(compose.services.worker.environment.WEBHOOK_WORKER).toBe('true');
  });

  it('has Prometheus scrape every API instance on its metrics port', () => {
    const targets = prometheus.scrape_configs.flatMap((job) => job.static_configs.flatMap((config) => config.targets));
    expect(targets.sort()).toEqual(['api-1:9464', 'api-2:9464']);
    expect(compose.services.prometheus.volumes[0]).toMatch(/deploy\/prometheus\.yml/);
  });
});
