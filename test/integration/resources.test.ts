// Resources, templates, prompts, completions and subscriptions, against the reference server
// (server-everything) and the library fixture, over real stdio.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expandTemplate, MAX_READ_TEXT_CHARS } from '../../src/core/mcp/features/resources';
import { isFeatureError, type ReadResourceResult } from '../../src/core/mcp/features/featureTypes';
import { ServerHub } from '../../src/core/mcp/hub/serverHub';
import { DEFAULT_HUB_SETTINGS } from '../../src/core/mcp/config/hubSettings';
import { fixture, reference } from '../helpers';

function ok<T>(value: T | { error: string }): T {
  if (isFeatureError(value)) throw new Error(`expected a result, got {"error": ${JSON.stringify(value.error)}}`);
  return value;
}

function nextEvent<T>(
  event: (l: (v: T) => void) => { dispose(): void },
  accept: (v: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve) => {
    const d = event((v) => {
      if (!accept(v)) return;
      d.dispose();
      resolve(v);
    });
  });
}

describe('server-everything: resources, templates, prompts, completion, subscriptions', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  before(async () => {
    hub.reconcile([reference('everything', 'server-everything', ['stdio'])]);
    await hub.whenIdle();
    assert.equal(hub.server('everything')?.state.kind, 'running');
  });
  after(() => hub.closeAll());

  test('lists resources and templates (all pages) and reads a listed resource', async () => {
    const resources = hub.catalog.resources();
    assert.ok(resources.length >= 5, `resources: ${resources.length}`);
    assert.ok(resources.every((r) => r.server === 'everything'));
    const doc = resources.find((r) => r.uri === 'demo://resource/static/document/features.md');
    assert.ok(doc, 'the static features document is listed');
    const read = ok(await hub.catalog.readResource('everything', doc.uri));
    assert.equal(read.contents[0]!.mimeType, 'text/markdown');
    assert.match(read.contents[0]!.text!, /# Everything Server - Features/);
    assert.deepEqual(
      hub.catalog.templates().map((t) => [t.uriTemplate, t.variables]),
      [
        ['demo://resource/dynamic/text/{resourceId}', ['resourceId']],
        ['demo://resource/dynamic/blob/{resourceId}', ['resourceId']],
      ],
    );
  });

  test('expands a template (RFC 6570) and reads the result, text and binary', async () => {
    const [text, blob] = hub.catalog.templates();
    const uri = expandTemplate(text!.uriTemplate, { resourceId: 7 });
    assert.equal(uri, 'demo://resource/dynamic/text/7');
    assert.match(ok(await hub.catalog.readResource('everything', uri as string)).contents[0]!.text!, /^Resource 7: /);
    const binary = ok(
      await hub.catalog.readResource('everything', expandTemplate(blob!.uriTemplate, { resourceId: 2 }) as string),
    ).contents[0]!;
    assert.ok(binary.blob && binary.size > 0 && binary.text === undefined);
    assert.deepEqual(expandTemplate(text!.uriTemplate, {}), {
      error: 'template "demo://resource/dynamic/text/{resourceId}" needs "resourceId"',
    });
  });

  test('a read the server refuses is a clear error, never a throw', async () => {
    const r = await hub.catalog.readResource('everything', 'demo://resource/nothing-here');
    assert.ok(isFeatureError(r));
    assert.match(r.error, /not found|unknown|nothing-here/i);
    assert.deepEqual(await hub.catalog.readResource('nobody', 'x://y'), {
      error: 'unknown server "nobody"; servers: everything',
    });
  });

  test('prompts with arguments, and completion of an argument with context', async () => {
    const prompts = hub.catalog.prompts();
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'],
    );
    const args = prompts.find((p) => p.name === 'args-prompt')!;
    assert.deepEqual(
      args.arguments.map((a) => [a.name, a.required]),
      [
        ['city', true],
        ['state', false],
      ],
    );
    const got = ok(await hub.catalog.getPrompt('args-prompt', { city: 'Paris', state: 'Texas' }));
    assert.match(JSON.stringify(got.messages), /Paris, Texas/);
    assert.deepEqual(await hub.catalog.getPrompt('args-prompt', {}), { error: 'prompt "args-prompt" needs "city"' });

    assert.deepEqual(ok(await hub.catalog.completePrompt('completable-prompt', 'department', 'Ma')).values, [
      'Marketing',
    ]);
    assert.deepEqual(
      ok(await hub.catalog.completePrompt('completable-prompt', 'name', '', { department: 'Engineering' })).values,
      ['Alice', 'Bob', 'Charlie'],
    );
    const embedded = ok(await hub.catalog.getPrompt('resource-prompt', { resourceType: 'Text', resourceId: '3' }));
    assert.ok(
      embedded.messages.some((m) => m.content.type === 'resource'),
      'the embedded resource is kept as sent',
    );
  });

  test('subscribes to a resource and hears its updates', async () => {
    const uri = 'demo://resource/dynamic/text/1';
    const sub = await hub.catalog.subscribe('everything', uri);
    assert.ok(!isFeatureError(sub), JSON.stringify(sub));
    const update = nextEvent(hub.catalog.onDidUpdateResource, (u) => u.uri === uri);
    assert.match(await hub.registry.call('toggle-subscriber-updates', {}), /Started/);
    assert.deepEqual(await update, { server: 'everything', uri });
    await hub.registry.call('toggle-subscriber-updates', {});
    sub.dispose();
  });
});

describe('library fixtures: conflicts by URI and name, list changes, updates, icons', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  before(async () => {
    hub.reconcile([
      fixture('alpha', 'library.mjs', [], { env: { LIBRARY_LABEL: 'alpha' } }),
      fixture('beta', 'library.mjs', [], { env: { LIBRARY_LABEL: 'beta' } }),
      fixture('research', 'research.mjs'),
    ]);
    await hub.whenIdle();
  });
  after(() => hub.closeAll());

  test('the same URI on two servers: both listed, each read from its own server, nothing overwritten', async () => {
    const readme = hub.catalog.resources().filter((r) => r.uri === 'library://notes/readme');
    assert.deepEqual(
      readme.map((r) => r.server),
      ['alpha', 'beta'],
    );
    assert.deepEqual(hub.catalog.serversWithResource('library://notes/readme'), ['alpha', 'beta']);
    const texts = await Promise.all(
      ['alpha', 'beta'].map(
        async (s) => ok(await hub.catalog.readResource(s, 'library://notes/readme')).contents[0]!.text,
      ),
    );
    assert.deepEqual(texts, ['Welcome to the alpha.', 'Welcome to the beta.']);
  });

  test("the same prompt name on two servers: named by the tools' policy, the server as description", async () => {
    const prompts = hub.catalog.prompts();
    assert.deepEqual(
      prompts.map((p) => [p.name, p.server, p.remoteName]),
      [
        ['summarize', 'alpha', 'summarize'],
        ['beta.summarize', 'beta', 'summarize'],
      ],
    );
    assert.match(prompts[1]!.renamed!, /already belonged to an earlier server/);
    const got = ok(await hub.catalog.getPrompt('beta.summarize', { note: 'guide', style: 'terse' }));
    assert.equal(got.server, 'beta');
    assert.deepEqual(
      got.messages.map((m) => m.content.type),
      ['text', 'resource'],
    );
    assert.match(JSON.stringify(got.messages), /note guide of the beta in a terse style/);
    assert.deepEqual(ok(await hub.catalog.completePrompt('beta.summarize', 'note', 'g')).values, ['guide']);
  });

  test('under conflictPolicy "error" the later prompt is refused, visibly', () => {
    const configs = hub.servers().map((s) => s.config);
    hub.reconcile(configs, [], { ...DEFAULT_HUB_SETTINGS, conflictPolicy: 'error' });
    const { prompts, problems } = hub.catalog.promptsWithProblems();
    hub.reconcile(configs, [], DEFAULT_HUB_SETTINGS);
    assert.deepEqual(
      prompts.map((p) => p.name),
      ['summarize'],
    );
    assert.match(
      problems[0]!.message,
      /prompt "summarize" of server "beta" clashes with an earlier server's prompt and was refused/,
    );
  });

  test('completion of a template variable', async () => {
    const [book] = hub.catalog.templates().filter((t) => t.server === 'alpha');
    assert.deepEqual(ok(await hub.catalog.completeTemplate('alpha', book!.uriTemplate, 'shelf', 'h')).values, [
      'history',
    ]);
    const uri = expandTemplate(book!.uriTemplate, { shelf: 'history', title: 'SPQR' }) as string;
    assert.equal(
      ok(await hub.catalog.readResource('alpha', uri)).contents[0]!.text,
      'alpha: "SPQR" from the history shelf',
    );
  });

  test('list_changed refreshes the list (and says so); a subscribed note that changes is reported', async () => {
    const changed = nextEvent(hub.catalog.onDidChangeResources, () =>
      hub.catalog.resources().some((r) => r.uri === 'library://notes/new'),
    );
    assert.match(await hub.registry.call('add_note', { id: 'new', text: 'a new note' }), /added/);
    await changed;
    assert.deepEqual(hub.catalog.serversWithResource('library://notes/new'), ['alpha']);

    const sub = ok(await hub.catalog.subscribe('beta', 'library://notes/guide'));
    const update = nextEvent(hub.catalog.onDidUpdateResource);
    await hub.registry.call('beta.edit_note', { id: 'guide', text: 'rewritten' });
    assert.deepEqual(await update, { server: 'beta', uri: 'library://notes/guide' });
    assert.equal(ok(await hub.catalog.readResource('beta', 'library://notes/guide')).contents[0]!.text, 'rewritten');
    sub.dispose();
  });

  test('a server without resources or prompts says so', async () => {
    assert.deepEqual(await hub.catalog.readResource('research', 'x://y'), {
      error: 'server "research" does not offer resources',
    });
    assert.deepEqual(await hub.catalog.subscribe('research', 'x://y'), {
      error: 'server "research" does not offer resource subscriptions',
    });
  });

  test('icons: only allowed images from allowed places are kept; each refusal names the server and why', () => {
    const info = hub.catalog.serverInfo('alpha')!;
    assert.equal(info.title, 'The alpha Library');
    assert.deepEqual(
      info.icons.map((i) => [i.src.slice(0, 22), i.mimeType]),
      [
        ['data:image/png;base64,', 'image/png'],
        ['file:///usr/share/icon', 'image/svg+xml'],
      ],
    );
    const refused = hub.catalog
      .problems()
      .filter((p) => p.server === 'alpha')
      .map((p) => p.message);
    assert.ok(
      refused.some((m) => /the server .*"javascript:" scheme is not allowed/.test(m)),
      refused.join('\n'),
    );
    assert.ok(refused.some((m) => /data: URL of type "text\/html" is not an allowed image type/.test(m)));
    assert.ok(refused.some((m) => /evil\.example.*must come from the server's own origin/.test(m)));
    assert.ok(
      hub.catalog.resources().every((r) => r.icons.length === 0),
      "the resources' javascript: icons were refused",
    );
    const cite = hub.registry.get('cite')!;
    assert.equal(cite.title, 'Cite a note');
    assert.deepEqual(
      cite.icons?.map((i) => i.mimeType),
      ['image/png'],
    );
    assert.ok(
      hub
        .problems()
        .tools.some((p) => p.server === 'alpha' && /tool "cite".*evil\.example.*own origin/.test(p.message)),
    );
  });
});

describe('a 50 MB resource', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  test('is capped: the read keeps its head and says how much there was; the model gets maxOutputChars', async () => {
    hub.reconcile([fixture('big', 'library.mjs', [], { env: { LIBRARY_BIG_MB: '50' } })]);
    await hub.whenIdle();
    const read: ReadResourceResult = ok(await hub.catalog.readResource('big', 'library://big'));
    const part = read.contents[0]!;
    assert.equal(part.text!.length, MAX_READ_TEXT_CHARS);
    assert.deepEqual(part.truncated, { kept: MAX_READ_TEXT_CHARS, total: 50 * 1024 * 1024 });
    assert.equal(part.size, 50 * 1024 * 1024);
    const forModel = await hub.registry.call('read_resource', { server: 'big', uri: 'library://big' });
    assert.ok(forModel.length < DEFAULT_HUB_SETTINGS.maxOutputChars + 200, `model text: ${forModel.length}`);
    assert.match(forModel, /…\[truncated: \d+ of \d+ characters cut\]$/);
  });
});

describe('a server whose lists are broken', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  test('still runs with its tools; each bad list or item is a problem naming the server and what is wrong', async () => {
    hub.reconcile([fixture('broken', 'lowlevel.mjs', ['bad-lists'])]);
    await hub.whenIdle();
    assert.equal(hub.server('broken')?.state.kind, 'running');
    assert.match(await hub.registry.call('still_works', {}), /called still_works/);
    assert.deepEqual(hub.catalog.resources(), []);
    assert.deepEqual(
      hub.catalog.prompts().map((p) => [p.name, p.arguments.map((a) => a.name)]),
      [['fine', ['a']]],
    );
    const problems = hub.catalog.problems().map((p) => p.message);
    for (const expected of [
      /server "broken" failed to list its resources: .*the resource index is corrupt/,
      /server "broken" listed prompt #1 without a valid "name"; it was skipped/,
      /server "broken" listed prompt #2 that is not an object; it was skipped/,
      /prompt "fine" of server "broken" has an argument without a name; it was skipped/,
    ]) {
      assert.ok(
        problems.some((m) => expected.test(m)),
        `${expected} in:\n${problems.join('\n')}`,
      );
    }
  });
});

describe('lists that come in pages', { timeout: 60_000 }, () => {
  const hub = new ServerHub();
  after(() => hub.closeAll());

  test('every page is followed; a cursor that repeats stops the listing with a problem', async () => {
    hub.reconcile([fixture('paged', 'lowlevel.mjs', ['paged-lists'])]);
    await hub.whenIdle();
    assert.deepEqual(
      hub.catalog.resources().map((r) => r.name),
      ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7'],
    );
    assert.deepEqual(
      hub.catalog.prompts().map((p) => p.name),
      ['p1', 'p2', 'p3', 'p4', 'p5'],
    );
    assert.deepEqual(
      hub.catalog.templates().map((t) => t.uriTemplate),
      ['paged://t/{id}'],
      'the first page is kept',
    );
    assert.ok(
      hub.catalog
        .problems()
        .some((p) =>
          /server "paged" repeated the page cursor "again" of resources\/templates\/list; listing stopped at 2 items/.test(
            p.message,
          ),
        ),
    );
  });
});
