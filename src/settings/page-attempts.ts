// An endpoint's delivery attempts as a page, for the person who follows the settings page's
// "Attempts" link; a program asking the same path for JSON gets the list itself.
import { html, page, type SafeHtml } from '../http/html.js';
import type { AttemptView } from '../webhooks/index.js';
import { day, listTable } from './page-kit.js';

const outcome = (attempt: AttemptView) =>
  attempt.responseStatus === null ? 'no answer' : `HTTP ${attempt.responseStatus}`;

export function attemptsPage(header: SafeHtml, endpointId: string, attempts: AttemptView[]): SafeHtml {
  return page(
    'Webhook attempts',
    html`<section>
      <p><a href="/app/settings#webhooks">← Settings</a></p>
      <h1>Delivery attempts of <code>${endpointId}</code></h1>
      <p class="muted">Newest first.</p>
      ${listTable(
        ['Time', 'Event', 'Attempt', 'Outcome', 'Latency', 'Error', 'Next attempt'],
        attempts.map((attempt) => [
          day(attempt.createdAt),
          html`<code>${attempt.eventType}</code><div class="muted"><code>${attempt.eventId}</code></div>`,
          String(attempt.attempt),
          html`${outcome(attempt)}<div class="muted">delivery ${attempt.deliveryStatus}</div>`,
          `${attempt.latencyMs} ms`,
          attempt.error ?? '—',
          day(attempt.nextAttemptAt),
        ]),
        'No attempts yet: the endpoint has not been sent an event.',
      )}
    </section>`,
    { header },
  );
}
