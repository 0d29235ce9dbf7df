// The policy an app's document is served under: only plain origins a server declares go in, and a
// server that writes a keyword, a quote, a semicolon, a wildcard scheme or a path gets them dropped
// (and reported), never spliced into the policy.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppDocuments, type AppDocument } from '../../src/core/apps/appDocuments';
import { appCsp, appCspDomains } from '../../src/core/apps/appCsp';

test('nothing declared: inline code only, no connections, no frames', () => {
  const { domains, dropped } = appCspDomains(undefined);
  assert.deepEqual(dropped, []);
  const csp = appCsp(domains);
  assert.match(csp, /^default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; /);
  assert.match(
    csp,
    /connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types default \*$/,
  );
  assert.doesNotMatch(csp, /unsafe-eval/);
});

test('declared origins go where they belong: https and wss anywhere, http and ws only on this machine', () => {
  const { domains, dropped } = appCspDomains({
    connectDomains: [
      'https://api.example.com',
      'wss://live.example.com:8443',
      'http://127.0.0.1:4000',
      'http://evil.example.com',
    ],
    resourceDomains: ['https://*.cdn.example.com'],
    frameDomains: ['https://maps.example.com'],
  });
  assert.deepEqual(domains.connectDomains, [
    'https://api.example.com',
    'wss://live.example.com:8443',
    'http://127.0.0.1:4000',
  ]);
  assert.deepEqual(dropped, ['connectDomains: "http://evil.example.com"']);
  const csp = appCsp(domains);
  assert.match(
    csp,
    /connect-src https:\/\/api\.example\.com wss:\/\/live\.example\.com:8443 http:\/\/127\.0\.0\.1:4000;/,
  );
  assert.match(csp, /script-src 'unsafe-inline' https:\/\/\*\.cdn\.example\.com;/);
  assert.match(csp, /frame-src https:\/\/maps\.example\.com;/);
});

test('a server that writes policy syntax into a domain gets it dropped, not spliced in', () => {
  const hostile = [
    'https://a.example.com; script-src *',
    "'unsafe-eval'",
    '*',
    'https:',
    'https://a.example.com/path',
    'data:',
    "https://a.example.com'",
    'javascript:alert(1)',
    42,
    'HTTPS://UPPER.EXAMPLE.COM',
  ];
  const { domains, dropped } = appCspDomains({
    resourceDomains: hostile,
    connectDomains: 'https://x.example.com',
    frameDomains: Array.from({ length: 40 }, (_, i) => `https://f${i}.example.com`),
  });
  assert.deepEqual(domains.resourceDomains, ['https://upper.example.com']);
  assert.equal(dropped.filter((d) => d.startsWith('resourceDomains')).length, 9);
  assert.ok(dropped.includes('connectDomains (not a list)'));
  assert.equal(domains.frameDomains.length, 32);
  assert.ok(dropped.includes('frameDomains: 8 past the first 32'));
  const csp = appCsp(domains);
  assert.match(csp, /script-src 'unsafe-inline' https:\/\/upper\.example\.com; /);
  assert.doesNotMatch(csp, /unsafe-eval|javascript|\s\*[\s;]|https:[\s;]/);
  assert.equal(csp.split(';').length, 10, 'ten directives, none added by a server');
});

describe("a sandboxed server's app reaches no more than its server (escape 5)", () => {
  const html = '<html></html>';
  const declared = {
    connectDomains: [
      'http://localhost:5432',
      'https://api.example.com',
      'https://evil.example.net',
      'wss://*.example.com',
    ],
    resourceDomains: ['https://cdn.example.org'],
    frameDomains: [],
  };
  const source = (sandbox: Record<string, readonly string[] | undefined>) => ({
    readResource: async (_server: string, uri: string) => ({
      contents: [{ uri, mimeType: 'text/html;profile=mcp-app', text: html, meta: { ui: { csp: declared } } }],
    }),
    onDidUpdateResource: () => ({ dispose() {} }),
    sandboxDomains: (server: string) => sandbox[server],
  });

  test('a loopback service the sandbox refuses the server is refused its app; so is any host its sandbox does not list', async () => {
    const docs = new AppDocuments(source({ db: ['api.example.com'] }) as never);
    const doc = (await docs.get('db', 'ui://db/app')) as AppDocument;
    assert.match(doc.csp, /connect-src https:\/\/api\.example\.com;/);
    assert.doesNotMatch(doc.csp, /localhost|evil|cdn\.example\.org|\*\.example\.com/);
    assert.ok(
      doc.dropped.some(
        (d) => d.includes('http://localhost:5432') && d.includes("its server's sandbox does not reach it"),
      ),
    );
    docs.dispose();
  });

  test('a host and port the sandbox lists, and a wildcard under a wildcard as wide, stay', async () => {
    const docs = new AppDocuments(source({ db: ['localhost:5432', '*.example.com', 'cdn.example.org'] }) as never);
    const doc = (await docs.get('db', 'ui://db/app')) as AppDocument;
    assert.match(doc.csp, /connect-src http:\/\/localhost:5432 https:\/\/api\.example\.com wss:\/\/\*\.example\.com;/);
    assert.match(doc.csp, /script-src 'unsafe-inline' https:\/\/cdn\.example\.org;/);
    docs.dispose();
    const other = new AppDocuments(source({ db: ['localhost:6000', 'api.example.com'] }) as never);
    const d2 = (await other.get('db', 'ui://db/app')) as AppDocument;
    assert.match(
      d2.csp,
      /connect-src https:\/\/api\.example\.com;/,
      'another port, and a wildcard under a plain host, are refused',
    );
    other.dispose();
  });

  test("an unsandboxed server's app keeps what it declares", async () => {
    const docs = new AppDocuments(source({}) as never);
    const doc = (await docs.get('db', 'ui://db/app')) as AppDocument;
    assert.match(
      doc.csp,
      /connect-src http:\/\/localhost:5432 https:\/\/api\.example\.com https:\/\/evil\.example\.net wss:\/\/\*\.example\.com;/,
    );
    docs.dispose();
  });
});
