import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { VSIX } from './codeServer';

const { CHROMIUM, paths } = require('../../scripts/e2e-paths.cjs') as {
  CHROMIUM: string;
  paths: { node24Bin: string; codeServer: string; cache: string };
};

/** What the e2e suite needs and does not have, each with how to get it. */
export function missingPrerequisites(): string[] {
  const out: string[] = [];
  if (!existsSync(CHROMIUM))
    out.push(`Chromium at ${CHROMIUM} (as root: apt-get install -y chromium-headless-shell libkrb5-dev)`);
  if (
    !existsSync(join(paths.cache, '.complete')) ||
    !existsSync(join(paths.node24Bin, 'node')) ||
    !existsSync(paths.codeServer)
  ) {
    out.push(`Node 24 and code-server in ${paths.cache} (run: node scripts/e2e-setup.mjs)`);
  }
  if (!existsSync(VSIX)) out.push(`the packaged extension ${VSIX} (run: npm run package)`);
  return out;
}

/**
 * Declares an e2e test. With a prerequisite missing it fails, saying what is missing and how to
 * get it: never a silent skip. (`npm test` itself stops earlier with one line; the only opt-out is
 * MINAGENT_SKIP_E2E=1, which `npm test` announces loudly and which keeps this suite from running.)
 */
export function e2eTest(name: string, fn: () => Promise<void>, { timeout = 300_000 } = {}): void {
  const missing = missingPrerequisites();
  test(name, { timeout }, async () => {
    if (missing.length) throw new Error(`e2e prerequisites are missing:\n  ${missing.join('\n  ')}`);
    await fn();
  });
}
