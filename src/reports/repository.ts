import type { PrismaClient } from '../db/generated/prisma/client.js';
import { notFound } from '../errors/index.js';

/** A live (not archived) report of the caller's workspace, or 404. */
export async function findReport(db: PrismaClient, id: string) {
  const report = await db.report.findFirst({ where: { id, archivedAt: null } });
  if (!report) throw notFound('report');
  return report;
}
