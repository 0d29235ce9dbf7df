// The policy an app's document is served under: only plain origins a server declares go in, and a
// server that writes a keyword, a quote, a semicolon, a wildcard scheme or a path gets them dropped
// (and reported), never spliced into the policy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appCsp, appCspDomains } from '../../src/core/apps/appCsp';

test('nothing declared: inline code only, no connections, no frames', () => {
  const { domains, dropped } = appCspDomains(undefined);
  assert.deepEqual(dropped, []);
  const csp = appCsp(domains);
  assert.match(csp, /^default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; /);
  assert.match(csp, /connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'$/);
  assert.doesNotMatch(csp, /unsafe-eval/);
});

test('declared origins go where they belong: https and wss anywhere, http and ws only on this machine', () => {
  const { domains, dropped } = appCspDomains({
    connectDomains: ['https://api.example.com', 'wss://live.example.com:8443', 'http://127.0.0.1:4000', 'http://evil.example.com'],
    resourceDomains: ['https://*.cdn.example.com'],
    frameDomains: ['https://maps.example.com'],
  });
  assert.deepEqual(domains.connectDomains, ['https://api.example.com', 'wss://live.example.com:8443', 'http://127.0.0.1:4000']);
  assert.deepEqual(dropped, ['connectDomains: "http://evil.example.com"']);
  const csp = appCsp(domains);
  assert.match(csp, /connect-src https:\/\/api\.example\.com wss:\/\/live\.example\.com:8443 http:\/\/127\.0\.0\.1:4000;/);
  assert.match(csp, /script-src 'unsafe-inline' https:\/\/\*\.cdn\.example\.com;/);
  assert.match(csp, /frame-src https:\/\/maps\.example\.com;/);
});

test('a server that writes policy syntax into a domain gets it dropped, not spliced in', () => {
  const hostile = ["https://a.example.com; script-src *", "'unsafe-eval'", '*', 'https:', 'https://a.example.com/path', 'data:', "https://a.example.com'", 'javascript:alert(1)', 42, 'HTTPS://UPPER.EXAMPLE.COM'];
  const { domains, dropped } = appCspDomains({ resourceDomains: hostile, connectDomains: 'https://x.example.com', frameDomains: Array.from({ length: 40 }, (_, i) => `https://f${i}.example.com`) });
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
