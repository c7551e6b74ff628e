// Email domains of a workspace's single sign-on. A claim gets a token to publish as TXT at
// _signalboard-challenge.<domain>; the domain counts only once that record is seen through
// DNS_RESOLVER. Unverified claims block nobody; a verified domain belongs to one workspace
// (a partial unique index enforces it).
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type pg from 'pg';
import type { PrismaClient } from '../db/generated/prisma/client.js';
import { isIdOf, newId } from '../db/ids.js';
import { runStatement, sqlStatement } from '../db/sql-runner.js';
import { UsageError } from '../errors/index.js';
import type { Actor } from '../workspaces/index.js';
import { adminCommand, authorizeActor, inActorsWorkspace } from '../workspaces/index.js';
import { PUBLIC_MAIL_DOMAINS } from './public-mail-domains.js';
import { emailDomain } from '../mail/addresses.js';
import { MANAGE_SSO } from './connections.js';

export const CHALLENGE_LABEL = '_signalboard-challenge';
const MAX_DOMAINS_PER_WORKSPACE = 20;

export interface DomainView {
  id: string;
  domain: string;
  verified: boolean;
  verifiedAt: string | null;
  txtName: string;
  txtValue: string;
}

const view = (row: { id: string; domain: string; verificationToken: string; verifiedAt: Date | null }): DomainView => ({
  id: row.id,
  domain: row.domain,
  verified: row.verifiedAt !== null,
  verifiedAt: row.verifiedAt?.toISOString() ?? null,
  txtName: `${CHALLENGE_LABEL}.${row.domain}`,
  txtValue: row.verificationToken,
});

export function normalizeDomain(input: string): string {
  const domain = input.trim().toLowerCase().replace(/\.$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/.test(domain))
    throw new UsageError(`"${input}" is not a domain name`);
  if (PUBLIC_MAIL_DOMAINS.has(domain))
    throw new UsageError(`${domain} is a public mail provider; only a company's own domain can be claimed`);
  return domain;
}

/** A resolver for TXT lookups: DNS_RESOLVER (host:port) when configured, else the system's. */
export function txtResolver(dnsResolver: string | undefined): Resolver {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  if (dnsResolver) resolver.setServers([dnsResolver]);
  return resolver;
}

export async function listDomains(prisma: PrismaClient, workspaceId: string): Promise<DomainView[]> {
  return (await prisma.ssoDomain.findMany({ where: { workspaceId }, orderBy: { domain: 'asc' } })).map(view);
}

export async function claimDomain(
  prisma: PrismaClient,
  input: { workspaceId: string; domain: string; actor: Actor },
): Promise<DomainView> {
  const domain = normalizeDomain(input.domain);
  return adminCommand(prisma, input, MANAGE_SSO, async ({ tx, audit }) => {
    const existing = await tx.ssoDomain.findUnique({
      where: { workspaceId_domain: { workspaceId: input.workspaceId, domain } },
    });
    if (existing) return view(existing);
    if ((await tx.ssoDomain.count({ where: { workspaceId: input.workspaceId } })) >= MAX_DOMAINS_PER_WORKSPACE)
      throw new UsageError(`a workspace claims at most ${MAX_DOMAINS_PER_WORKSPACE} domains`, 'conflict');
    const row = await tx.ssoDomain.create({
      data: {
        id: newId('domain'),
        workspaceId: input.workspaceId,
        domain,
        verificationToken: `signalboard-verification=${randomBytes(24).toString('base64url')}`,
      },
    });
    await audit('sso_domain.claimed', row.id, { domain });
    return view(row);
  });
}

export async function verifyDomain(
  deps: { prisma: PrismaClient; resolver: Resolver },
  input: { domainId: string; actor: Actor },
): Promise<DomainView> {
  if (!isIdOf('domain', input.domainId)) throw new UsageError(`${input.domainId} is not a domain id (dom_…)`);
  const row = await deps.prisma.ssoDomain.findFirst({
    where: { id: input.domainId, ...inActorsWorkspace(input.actor) },
  });
  if (!row) throw new UsageError(`no domain ${input.domainId}`, 'not_found');
  // Checked before the DNS lookup too, so that members and strangers cause none.
  await authorizeActor(deps.prisma, row.workspaceId, input.actor, MANAGE_SSO);
  if (row.verifiedAt) return view(row);
  let records: string[][];
  try {
    records = await deps.resolver.resolveTxt(`${CHALLENGE_LABEL}.${row.domain}`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOTFOUND' || code === 'ENODATA' ? 'not published or not propagated' : `DNS lookup failed: ${code}`;
    throw new UsageError(`no TXT record at ${CHALLENGE_LABEL}.${row.domain} yet (${why})`, 'conflict');
  }
  if (!records.some((chunks) => chunks.join('') === row.verificationToken)) {
    throw new UsageError(
      `the TXT record at ${CHALLENGE_LABEL}.${row.domain} does not hold this workspace's token`,
      'conflict',
    );
  }
  try {
    return await adminCommand(
      deps.prisma,
      { workspaceId: row.workspaceId, actor: input.actor },
      MANAGE_SSO,
      async ({ tx, audit }) => {
        const verified = await tx.ssoDomain.update({ where: { id: row.id }, data: { verifiedAt: new Date() } });
        await audit('sso_domain.verified', row.id, { domain: row.domain });
        return view(verified);
      },
    );
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002')
      throw new UsageError(`${row.domain} is already verified by another workspace`, 'conflict');
    throw error;
  }
}

const WORKSPACE_OF_DOMAIN = sqlStatement<{ workspace_id: string }, { domain: string }>(
  'sso.workspace-of-domain',
  (param) => `SELECT workspace_id FROM sso_domains WHERE domain = ${param('domain')} AND verified_at IS NOT NULL`,
);

/** The workspace that verified the domain of this address, if any. */
export async function workspaceForEmail(pool: pg.Pool, email: string): Promise<string | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const result = await runStatement(pool, WORKSPACE_OF_DOMAIN, { domain });
  return result.rows[0]?.workspace_id ?? null;
}
