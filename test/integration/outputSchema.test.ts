// A result that does not match its tool's outputSchema is reported (2026-07-28): the model still gets the result,
// followed by what is wrong, and the server's log says so. The schema and the data are a server's: a pattern that
// backtracks for minutes is stopped in the checker's worker, and the host goes on.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { OutputChecker } from '../../src/core/mcp/tools/outputCheck';
import { fixture, iterationCounter, loggerInto } from '../helpers';

describe('results checked against their outputSchema', { timeout: 60_000 }, () => {
  const lines: string[] = [];
  const hub = new ServerHub({ logger: loggerInto(lines) });
  after(() => hub.closeAll());

  test('a matching result is left as it is; a wrong or missing one is given whole, with the mismatch after it, and logged', async () => {
    hub.reconcile([fixture('shapes', 'lowlevel.mjs', ['shapes'])]);
    await hub.whenIdle();
    assert.equal(await hub.registry.call('weather_ok', {}), 'called weather_ok with {}\n{"temp":21}');
    const wrong = await hub.registry.call('weather_wrong', {});
    assert.match(
      wrong,
      /^called weather_wrong with \{\}\n\{"temp":"warm"\}\n\[outputSchema mismatch: the structured result does not match the tool's declared outputSchema: ".*temp must be number.*"\]$/,
    );
    assert.match(
      await hub.registry.call('weather_missing', {}),
      /^called weather_missing with \{\}\n\[outputSchema mismatch: .*"it has no structured result"\]$/,
    );
    assert.ok(
      lines.some((l) =>
        /tool "weather_wrong": its result does not match its outputSchema: .*temp must be number/.test(l),
      ),
      lines.join('\n'),
    );
  });

  test("attack: a schema's pattern that backtracks for minutes is stopped after the limit; the host's loop kept turning and the next check works", async () => {
    const loop = iterationCounter();
    const began = Date.now();
    const result = await hub.registry.call('backtrack', {});
    const took = Date.now() - began;
    loop.stop();
    assert.equal(
      result,
      `called backtrack with {}\n{"s":"${'a'.repeat(40)}!"}`,
      'the result, unflagged: it was not checked',
    );
    assert.ok(took < 10_000, `stopped after the limit (${took} ms)`);
    assert.ok(loop.now > 20, `the host's event loop turned while the check ran (${loop.now} iterations)`);
    assert.ok(lines.some((l) => /"backtrack": its result was not checked .*took longer than 2 s/.test(l)));
    assert.match(
      await hub.registry.call('weather_wrong', {}),
      /outputSchema mismatch/,
      'a new worker checks the next one',
    );
  });

  test('a schema that cannot be compiled, or one past the bounds, is reported unchecked', async () => {
    const checker = new OutputChecker();
    try {
      assert.deepEqual(await checker.check({ type: 'object' }, { a: 1 }), { matches: true });
      const odd = await checker.check({ $schema: 'https://example.com/unknown-dialect', type: 'object' }, {});
      assert.ok('unchecked' in odd && /cannot be used/.test(odd.unchecked), JSON.stringify(odd));
      let deep: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { x: deep } };
      const tooDeep = await checker.check(deep, {});
      assert.ok('unchecked' in tooDeep && /nested/.test(tooDeep.unchecked), JSON.stringify(tooDeep));
    } finally {
      checker.dispose();
    }
  });
});
