import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { VSIX } from './codeServer';

const { CHROMIUM, paths } = require('../../scripts/e2e-paths.cjs') as { CHROMIUM: string; paths: { node24Bin: string; codeServer: string } };

/** What the e2e suite needs and does not have, each with how to get it. */
export function missingPrerequisites(): string[] {
  const out: string[] = [];
  if (!existsSync(CHROMIUM)) out.push(`Chromium at ${CHROMIUM} (as root: apt-get install -y chromium libkrb5-dev)`);
  if (!existsSync(join(paths.node24Bin, 'node')) || !existsSync(paths.codeServer)) out.push('Node 24 and code-server (run: node scripts/e2e-setup.mjs)');
  if (!existsSync(VSIX)) out.push(`the packaged extension ${VSIX} (run: npm run package)`);
  return out;
}

/**
 * Declares an e2e test. With prerequisites missing it fails in CI (never a silent skip) and,
 * outside CI, is skipped with a message that says what to install.
 */
export function e2eTest(name: string, fn: () => Promise<void>): void {
  const missing = missingPrerequisites();
  if (!missing.length) {
    test(name, { timeout: 240_000 }, fn);
  } else if (process.env.CI) {
    test(name, () => {
      throw new Error(`e2e prerequisites are missing:\n  ${missing.join('\n  ')}`);
    });
  } else {
    test(name, { skip: `e2e prerequisites are missing: ${missing.join('; ')}` }, () => undefined);
  }
}
