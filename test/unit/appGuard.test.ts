// The first script of an app's page (src/core/apps/appGuard.ts): where it goes, and what it is given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { guardedHtml } from '../../src/core/apps/appGuard';

test("the guard goes after the doctype (the page stays in standards mode), else first, before any of the app's own", () => {
  const withDoctype = guardedHtml('<!DOCTYPE html>\n<html><head><script>app()</script>', false);
  assert.match(
    withDoctype,
    /^<!DOCTYPE html><script>\(function minagentAppGuard\(frameable\) \{[\s\S]*\}\)\(false\);<\/script>\n<html><head><script>app\(\)<\/script>$/,
  );
  const without = guardedHtml('<p>hi</p>', true);
  assert.ok(without.startsWith('<script>(function minagentAppGuard('));
  assert.ok(without.endsWith(')(true);</script><p>hi</p>'));
});

test('the guard is self-contained source: it parses on its own and names nothing outside itself', () => {
  const script = /<script>([\s\S]*)<\/script>/.exec(guardedHtml('', false))![1]!;
  // It compiles as a script (not run here: it needs a browser's window).
  assert.doesNotThrow(() => new Function(script));
  assert.doesNotMatch(script, /\b(require|import|exports|__name)\b/);
});
