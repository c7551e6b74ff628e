// Public identifiers: a type prefix plus 20 base62 characters (Stripe-style), so a
// malformed id can be refused with 400 before any lookup, and ids say what they are.
import { randomFillSync } from 'node:crypto';

export const idPrefixes = {
  workspace: 'ws',
  user: 'usr',
  membership: 'mem',
  client: 'cli',
  connection: 'con',
  report: 'rep',
  project: 'prj',
  scan: 'scn',
  signal: 'sig',
  event: 'evt',
  endpoint: 'whe',
  delivery: 'whd',
  attempt: 'wha',
  domain: 'dom',
  audit: 'aud',
  identity: 'uid',
  prompt: 'pmt',
  answer: 'ans',
} as const;

export type IdKind = keyof typeof idPrefixes;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_BODY_LENGTH = 20;

export function base62(length: number, nextByte: () => number = nextRandomByte): string {
  let out = '';
  while (out.length < length) {
    const byte = nextByte();
    // Reject 248..255 so every character is equally likely.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

// Ids draw from one pool of random bytes refilled 4 KiB at a time, not a randomBytes call per id
// (an ingest makes thousands; figures in docs/decisions/data-access.md).
const randomPool = Buffer.alloc(4096);
let randomIndex = randomPool.length;

function nextRandomByte(): number {
  if (randomIndex === randomPool.length) {
    randomFillSync(randomPool);
    randomIndex = 0;
  }
  return randomPool[randomIndex++]!;
}

export function newId(kind: IdKind, nextByte?: () => number): string {
  return `${idPrefixes[kind]}_${base62(ID_BODY_LENGTH, nextByte)}`;
}

export const idPattern = (kind: IdKind) => `^${idPrefixes[kind]}_[0-9A-Za-z]{${ID_BODY_LENGTH}}$`;

// Compiled once per kind: every v1 request with an id in its path checks it twice (its
// parameter, then GraphQL's variable).
const ID_SHAPES = Object.fromEntries(
  (Object.keys(idPrefixes) as IdKind[]).map((kind) => [kind, new RegExp(idPattern(kind))]),
) as Record<IdKind, RegExp>;

export function isIdOf(kind: IdKind, value: string): boolean {
  return ID_SHAPES[kind].test(value);
}
