import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkIcon, checkIcons, iconContext, MAX_DATA_ICON_CHARS } from '../../src/core/mcp/features/icons';
import type { ListProblem } from '../../src/core/mcp/features/paging';

const remote = iconContext('remote', { type: 'http', url: 'https://mcp.example.com:8443/mcp' });
const local = iconContext('local', { type: 'stdio' });

describe('icons', () => {
  test("http(s) icons only from the server's own origin", () => {
    assert.deepEqual(checkIcon({ src: 'https://mcp.example.com:8443/static/icon.png' }, remote), {
      src: 'https://mcp.example.com:8443/static/icon.png',
      mimeType: 'image/png',
    });
    assert.match(
      checkIcon({ src: 'https://mcp.example.com/icon.png' }, remote) as string,
      /not the server's own origin "https:\/\/mcp\.example\.com:8443"/,
    );
    assert.match(
      checkIcon({ src: 'https://tracker.example.net/pixel.png' }, remote) as string,
      /not the server's own origin/,
    );
    assert.match(
      checkIcon({ src: 'http://mcp.example.com:8443/icon.png' }, remote) as string,
      /not the server's own origin/,
      'http is another origin than https',
    );
    assert.match(checkIcon({ src: 'https://user:pw@mcp.example.com:8443/icon.png' }, remote) as string, /credentials/);
    assert.match(
      checkIcon({ src: 'https://example.com/icon.png', mimeType: 'image/png' }, local) as string,
      /the server is not/,
    );
  });

  test('file icons only for local servers', () => {
    assert.deepEqual(checkIcon({ src: 'file:///opt/tool/icon.svg' }, local), {
      src: 'file:///opt/tool/icon.svg',
      mimeType: 'image/svg+xml',
    });
    assert.match(
      checkIcon({ src: 'file:///etc/passwd', mimeType: 'image/png' }, remote) as string,
      /file: URL from a remote server/,
    );
  });

  test('attack: script and document URLs, wrong types and oversized data are refused', () => {
    assert.match(checkIcon({ src: 'javascript:alert(1)' }, local) as string, /"javascript:" scheme is not allowed/);
    assert.match(
      checkIcon({ src: 'data:text/html,<script>alert(1)</script>' }, local) as string,
      /"text\/html" is not an allowed image type/,
    );
    assert.match(
      checkIcon({ src: 'data:image/png;base64,AAAA', mimeType: 'image/svg+xml' }, local) as string,
      /claims "image\/svg\+xml"/,
    );
    assert.match(
      checkIcon({ src: 'file:///opt/icon.exe' }, local) as string,
      /no "mimeType" and no image file extension/,
    );
    assert.match(
      checkIcon({ src: 'file:///opt/icon', mimeType: 'text/html' }, local) as string,
      /"text\/html" is not an allowed image type/,
    );
    assert.match(
      checkIcon({ src: `data:image/png;base64,${'A'.repeat(MAX_DATA_ICON_CHARS)}` }, remote) as string,
      /over the \d+ limit/,
    );
    assert.match(checkIcon({ src: '/relative.png' }, remote) as string, /not an absolute URL/);
  });

  test('a list keeps the good ones, each refusal is a problem naming server and item; sizes and theme are checked', () => {
    const problems: ListProblem[] = [];
    const icons = checkIcons(
      [
        { src: 'data:image/webp;base64,UklGRg==', sizes: ['48x48', 'huge'], theme: 'dark' },
        { src: 'vbscript:x' },
        'not an icon',
      ],
      local,
      'tool "paint"',
      problems,
    );
    assert.deepEqual(icons, [
      { src: 'data:image/webp;base64,UklGRg==', mimeType: 'image/webp', sizes: ['48x48'], theme: 'dark' },
    ]);
    assert.deepEqual(
      problems.map((p) => [p.server, p.item]),
      [
        ['local', 'tool "paint"'],
        ['local', 'tool "paint"'],
      ],
    );
    assert.match(
      problems[0]!.message,
      /an icon of tool "paint" from server "local" was refused: the "vbscript:" scheme/,
    );
  });
});
