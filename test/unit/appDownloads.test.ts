// ui/download-file: what an app hands over or names, bounded, read through its own server only, with a plain name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseName, downloadFiles, MAX_DOWNLOAD_FILES } from '../../src/core/apps/appDownloads';
import { fontsCss } from '../../src/extension/apps/appHostContext';

const noRead = async () => {
  throw new Error('not read');
};

test('embedded text and base64 files, and a link read through the app server (never fetched by the host)', async () => {
  const read: string[] = [];
  const got = await downloadFiles(
    [
      { type: 'resource', resource: { uri: 'file:///tmp/report.csv', mimeType: 'text/csv', text: 'a,b\n' } },
      { type: 'resource', resource: { uri: 'data.bin', blob: Buffer.from([1, 2, 3]).toString('base64') } },
      { type: 'resource_link', uri: 'https://attacker.example/leak?d=secret', name: 'page.html' },
    ],
    async (uri) => {
      read.push(uri);
      return { contents: [{ uri, text: '<p>from the server</p>' }] };
    },
  );
  assert.ok('files' in got);
  assert.deepEqual(
    got.files.map((f) => [f.name, Buffer.from(f.bytes).toString('latin1'), f.mimeType]),
    [
      ['report.csv', 'a,b\n', 'text/csv'],
      ['data.bin', '\x01\x02\x03', undefined],
      ['page.html', '<p>from the server</p>', undefined],
    ],
  );
  assert.deepEqual(
    read,
    ['https://attacker.example/leak?d=secret'],
    "the link went to the app's server, as a resource",
  );
});

test('refused: too many files, no data, a bad blob, a link its server cannot give', async () => {
  const one = { type: 'resource', resource: { uri: 'a.txt', text: 'x' } };
  const r1 = await downloadFiles(Array(MAX_DOWNLOAD_FILES + 1).fill(one), noRead);
  assert.deepEqual(r1, { error: `it named ${MAX_DOWNLOAD_FILES + 1} files (at most ${MAX_DOWNLOAD_FILES})` });
  assert.deepEqual(await downloadFiles([], noRead), { error: 'it named no file' });
  const r2 = await downloadFiles([{ type: 'resource', resource: { uri: 'x', blob: 'not base64!' } }], noRead);
  assert.match((r2 as { error: string }).error, /neither text nor base64 data/);
  const r3 = await downloadFiles([{ type: 'resource_link', uri: 'kit://gone', name: 'g' }], noRead);
  assert.match((r3 as { error: string }).error, /its server did not give "kit:\/\/gone": not read/);
});

test('a file name is a plain base name: no folders, no control or bidi characters, no leading dots', () => {
  assert.equal(baseName('file:///etc/passwd'), 'passwd');
  assert.equal(baseName('..\\..\\evil.exe'), 'evil.exe');
  assert.equal(baseName('report\u202Egpj.exe'), 'reportgpj.exe');
  assert.equal(baseName('%2E%2E%2Fsecret'), 'secret', 'decoded, then cut at its last folder');
  assert.equal(baseName('...'), 'download');
  assert.equal(baseName('a:b*c?.txt'), 'a_b_c');
});

test('fonts: only plain family names become local faces (a workspace sets the editor font, not CSS in an app)', () => {
  assert.equal(
    fontsCss({ '--font-sans': '"Fira Sans", system-ui', '--font-mono': 'x"); } @import url(https://e.example); {' }),
    '@font-face { font-family: "Fira Sans"; src: local("Fira Sans"); }',
  );
  assert.equal(fontsCss({ '--font-sans': 'sans-serif' }), undefined);
});
