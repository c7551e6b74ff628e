// The consent page as a person sees it, at a laptop's and a phone's width: the details table
// keeps to its card however long the values an app chose (a client id that is a URL, a long
// redirect host). Screenshots in test/.tmp/consent-*.png for a person to look at.
import { describe, expect, it } from 'vitest';
import { consentPage, type ConsentView } from '../../src/mcp/oauth/consent-page.js';
import { chromiumAvailable, launchChromium, screenshotPath } from '../support/browser.js';

const longHost = 'connectors.a-very-long-subdomain-name-chosen-by-the-app.example-assistant-platform.com';
const view: ConsentView = {
  action: '/oauth/consent',
  csrfToken: 'csrf',
  email: 'somebody.with.a.long.address@agency-with-a-long-domain-name.example.com',
  clientName: 'AnAssistantWhoseNameHasNoSpacesAtAllAndGoesOnAndOn',
  clientId: `https://${longHost}/.well-known/oauth-client-metadata/0f1e2d3c4b5a69788796a5b4c3d2e1f0.json`,
  redirectHost: longHost,
  registeredAt: new Date('2026-11-01T00:00:00Z'),
  verifiedHost: longHost,
  stayConnected: true,
  workspaces: [{ id: 'wsp_1', name: 'Demo agency', plan: 'agency', writeActions: false }],
  toolsets: ['core', 'clients'],
  writesRequested: true,
  selectedWorkspaceId: 'wsp_1',
  paidPlans: ['pro', 'agency', 'scale'],
};

describe.skipIf(!chromiumAvailable)('consent page layout', () => {
  it.each([1366, 390])(
    'keeps the details table inside its card at %i px',
    async (width) => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.setContent(consentPage(view).value);
        const sizes = await page.evaluate(() => {
          const section = document.querySelector('section')!.getBoundingClientRect();
          const table = document.querySelector('table')!.getBoundingClientRect();
          return {
            sectionRight: section.right,
            tableRight: table.right,
            pageWidth: document.documentElement.scrollWidth,
          };
        });
        await page.screenshot({ path: screenshotPath(`consent-${width}.png`), fullPage: true });
        expect(sizes.tableRight).toBeLessThanOrEqual(sizes.sectionRight);
        expect(sizes.pageWidth).toBeLessThanOrEqual(width);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
