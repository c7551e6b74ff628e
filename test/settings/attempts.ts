// A failed delivery attempt of an endpoint, written as the webhook worker writes one, for tests
// that show attempts without running the worker.
import type { PrismaClient } from '../../src/db/generated/prisma/client.js';
import { newId } from '../../src/db/ids.js';

export async function recordFailedAttempt(prisma: PrismaClient, workspaceId: string, endpointId: string) {
  const event = await prisma.webhookEvent.create({
    data: { id: newId('event'), workspaceId, type: 'scan.completed', payload: {} },
  });
  const delivery = await prisma.webhookDelivery.create({
    data: { id: newId('delivery'), eventId: event.id, endpointId, status: 'pending' },
  });
  await prisma.webhookAttempt.create({
    data: {
      id: newId('attempt'),
      deliveryId: delivery.id,
      endpointId,
      attempt: 1,
      responseStatus: 503,
      latencyMs: 42,
      error: 'the receiver was down',
      nextAttemptAt: new Date(Date.now() + 5_000),
    },
  });
  return { eventId: event.id };
}
