import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { startViewServer, type ViewServer, type ViewServerOptions } from '../../src/view/index.js';

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

/** A viewer server and a page of a fresh Chromium on it, with the page's errors collected. */
export interface OpenViewer {
  server: ViewServer;
  page: Page;
  /** Uncaught errors of the page, in order (tests assert and empty it after each test). */
  pageErrors: string[];
  /** Closes the browser, then the server. */
  close: () => Promise<void>;
}

export async function openViewer(options: ViewServerOptions): Promise<OpenViewer> {
  const server = await startViewServer(options);
  const browser = await launchBrowser();
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    server,
    page,
    pageErrors,
    close: async () => {
      await browser.close();
      await server.close();
    },
  };
}
