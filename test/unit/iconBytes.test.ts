import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { iconDataUri, loadIcon, MAX_ICON_BYTES } from '../../src/core/mcp/features/iconBytes';
import { checkIcon, iconContext } from '../../src/core/mcp/features/icons';
import { isCardIcon } from '../../src/shared/validate';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SVG_WITH_SCRIPT =
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="1" height="1"/></svg>';

describe('loading icons', () => {
  let server: Server;
  let origin = '';
  const dir = mkdtempSync(join(tmpdir(), 'minagent-icons-'));
  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/icon.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
      if (req.url === '/page.png')
        return void res.writeHead(200, { 'content-type': 'image/png' }).end('<html><script>alert(1)</script></html>');
      if (req.url === '/away.png')
        return void res.writeHead(302, { location: 'https://tracker.example.net/pixel.png' }).end();
      if (req.url === '/huge.png')
        return void res.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(MAX_ICON_BYTES)]));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const remote = () => iconContext('remote', { type: 'http', url: `${origin}/mcp` });
  const local = iconContext('local', { type: 'stdio' });
  const checked = (src: string, ctx = remote(), mimeType?: string) => {
    const icon = checkIcon({ src, ...(mimeType ? { mimeType } : {}) }, ctx);
    assert.equal(typeof icon, 'object', `checkIcon refused ${src}: ${String(icon)}`);
    return icon as Exclude<typeof icon, string>;
  };

  test("a data: icon, an icon on the server's own origin and a local server's file icon load; the card gets a data: URI it accepts", async () => {
    const data = await loadIcon(checked(`data:image/png;base64,${PNG.toString('base64')}`));
    assert.equal(typeof data === 'object' && data.mimeType, 'image/png');
    const web = await loadIcon(checked(`${origin}/icon.png`));
    assert.ok(typeof web === 'object' && web.bytes.equals(PNG));
    writeFileSync(join(dir, 'icon.png'), PNG);
    const file = await loadIcon(checked(pathToFileURL(join(dir, 'icon.png')).href, local));
    assert.ok(typeof file === 'object' && file.bytes.equals(PNG));
    assert.equal(isCardIcon(iconDataUri(file)), true);
  });

  test('attack: an HTML page sent as a PNG, a redirect to another origin, an oversized icon and a missing file are refused', async () => {
    assert.match((await loadIcon(checked(`${origin}/page.png`))) as string, /not an allowed image, not image\/png/);
    assert.match((await loadIcon(checked(`${origin}/away.png`))) as string, /redirects/);
    assert.match((await loadIcon(checked(`${origin}/huge.png`))) as string, /over \d+ bytes/);
    assert.equal(typeof (await loadIcon(checked(pathToFileURL(join(dir, 'missing.png')).href, local))), 'string');
    // Another origin never gets as far as loading (checkIcon refuses it).
    assert.match(
      checkIcon({ src: 'https://tracker.example.net/pixel.png' }, remote()) as string,
      /not the server's own origin/,
    );
  });

  test('attack: an SVG with script loads only as an image (a tree icon, a card <img>), never as a document', async () => {
    const svg = await loadIcon(checked(`data:image/svg+xml;base64,${Buffer.from(SVG_WITH_SCRIPT).toString('base64')}`));
    assert.ok(typeof svg === 'object' && svg.mimeType === 'image/svg+xml');
    const uri = iconDataUri(svg);
    assert.equal(isCardIcon(uri), true, 'allowed in an <img>, where its script never runs');
    // What a card accepts as an icon: base64 data: URIs of image types only.
    for (const bad of [
      'javascript:alert(1)',
      `data:image/svg+xml,${SVG_WITH_SCRIPT}`,
      'data:text/html;base64,PHNjcmlwdD4=',
      `data:image/png;base64,${'A'.repeat(40_000)}`,
      'data:image/png;base64,AA"onerror="x',
    ]) {
      assert.equal(isCardIcon(bad), false, bad.slice(0, 40));
    }
  });
});
