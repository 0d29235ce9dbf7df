import assert from 'node:assert/strict';
import { test } from 'node:test';
import { languageFor, resourceView, sniffImage } from '../../src/core/mcp/features/resourceView';
import { imageHtml } from '../../src/extension/resources/imageHtml';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const b64 = (s: string) => Buffer.from(s).toString('base64');
const read = (...contents: Array<Record<string, unknown>>) => ({
  server: 's',
  uri: 'x://a',
  contents: contents.map((c) => ({ uri: 'x://a', size: 10, ...c })),
});

test("the language comes from the MIME type, else the URI's extension, else plain text", () => {
  assert.equal(languageFor('text/markdown; charset=utf-8', 'x://a'), 'markdown');
  assert.equal(languageFor('application/vnd.api+json', 'x://a'), 'json');
  assert.equal(languageFor(undefined, 'file:///a/b.py?x=1'), 'python');
  assert.equal(languageFor('text/x-unknown', 'x://a'), 'plaintext');
  assert.equal(languageFor('"><script>', 'x://a.<svg>'), 'plaintext', 'server-written types pick from a table only');
});

test('one text part opens as itself in its language; several parts under headers; binary as a size note', () => {
  assert.deepEqual(resourceView(read({ mimeType: 'application/json', text: '{"a":1}' })), {
    kind: 'text',
    text: '{"a":1}',
    language: 'json',
  });
  const many = resourceView(
    read(
      { uri: 'x://1', mimeType: 'text/plain', text: 'one' },
      { uri: 'x://2', mimeType: 'application/octet-stream', blob: b64('\u0000\u0001'), size: 2048 },
    ),
  );
  assert.equal(many.kind, 'text');
  assert.match(
    (many as { text: string }).text,
    /--- <x:\/\/1> \(text\/plain\)\none\n\n--- <x:\/\/2> \(application\/octet-stream\)\n\(binary data of type application\/octet-stream: 2 KB; not shown\)/,
  );
  const cut = resourceView(read({ text: 'abc', truncated: { kept: 3, total: 5_000_000 } }));
  assert.match((cut as { text: string }).text, /cut: 3 of 5,000,000 characters shown/);
});

test('an image previews only when its bytes are the image type it claims', () => {
  assert.deepEqual(resourceView(read({ mimeType: 'image/png', blob: PNG })), {
    kind: 'image',
    mimeType: 'image/png',
    data: PNG,
    uri: 'x://a',
    size: 10,
  });
  // attack: HTML that claims to be a PNG is not shown as an image (nor as HTML): a size note.
  const fake = resourceView(read({ mimeType: 'image/png', blob: b64('<html><script>alert(1)</script>') }));
  assert.equal(fake.kind, 'text');
  assert.match((fake as { text: string }).text, /binary data of type image\/png/);
  // a PNG that claims to be a GIF: not previewed either.
  assert.equal(resourceView(read({ mimeType: 'image/gif', blob: PNG })).kind, 'text');
  assert.equal(
    sniffImage(b64('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
    'image/svg+xml',
  );
});

test('attack: the preview page has no script and allows data: images only; server text is escaped', () => {
  const svg = b64('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
  const html = imageHtml('"><script>alert(3)</script>', {
    kind: 'image',
    mimeType: 'image/svg+xml',
    data: `${svg}"onerror="alert(4)`,
    uri: 'x://"><img src=x onerror=alert(5)>',
    size: 3,
  });
  assert.match(html, /content="default-src 'none'; img-src data:; style-src 'unsafe-inline'"/);
  assert.doesNotMatch(html, /<script/i, "no script element, not even the title's");
  assert.doesNotMatch(html, /onerror="|<img src=x/, 'the data and the URI cannot leave their attribute or text');
  assert.equal(html.match(/<img/g)?.length, 1);
  assert.match(
    html,
    /<img id="image" src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="&#34;&#62;&#60;script&#62;/,
  );
});
