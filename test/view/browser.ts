import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';

/** Screenshots of each page (git-ignored); docs/ holds the committed copies shown in the README. */
export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/**
 * A headless Chromium for the viewer's tests: the binary ships inside the @sparticuz/chromium
 * package (decompressed to /tmp on first use), so `npm ci` is the only set-up. A fresh profile
 * each time, and nothing that would reach the network.
 */
export async function launchBrowser(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const [{ default: chromium }, { chromium: playwright }] = await Promise.all([import('@sparticuz/chromium'), import('playwright-core')]);
  const profile = await mkdtemp(join(tmpdir(), 'agentmark-chromium-'));
  const context = await playwright.launchPersistentContext(profile, {
    executablePath: await chromium.executablePath(),
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
