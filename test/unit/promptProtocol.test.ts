// The prompt parts of the chat protocol as the webview checks them: what a host message may carry
// into the `/` menu and the transcript (raster images only), beside the host's checks of requests.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { promptInput } from '../../src/core/chat/prompts';
import { parseHostMessage } from '../../src/shared/validate';

describe('prompt messages across the webview boundary', () => {
  test('a prompt item is accepted with raster images and refused with an SVG or a malformed message', () => {
    const item = (messages: unknown) =>
      parseHostMessage({ type: 'append', item: { kind: 'prompt', id: 'p-1', name: 'review', server: 's', messages } });
    assert.ok(item([{ role: 'user', text: 'hi', images: [{ mimeType: 'image/png', data: 'AAAA' }] }]));
    assert.equal(
      item([{ role: 'user', text: 'hi', images: [{ mimeType: 'image/svg+xml', data: 'AAAA' }] }]),
      undefined,
    );
    assert.equal(item([{ role: 'system', text: 'hi' }]), undefined);
    assert.equal(item([{ role: 'user', text: 3 }]), undefined);
  });

  test('the prompt list and completions are checked field by field', () => {
    assert.ok(
      parseHostMessage({
        type: 'prompts',
        prompts: [{ name: 'a.b', server: 'a', arguments: [{ name: 'x', required: true }] }],
      }),
    );
    assert.equal(
      parseHostMessage({ type: 'prompts', prompts: [{ name: 'a.b', server: 'a', arguments: [{ name: 'x' }] }] }),
      undefined,
    );
    assert.equal(
      parseHostMessage({ type: 'prompts', prompts: [{ name: 'a.b', server: 'a', description: {}, arguments: [] }] }),
      undefined,
    );
    assert.ok(parseHostMessage({ type: 'completions', requestId: 3, values: ['a'] }));
    assert.equal(parseHostMessage({ type: 'completions', requestId: 3, values: [1] }), undefined);
  });

  test("a prompt's text is cut past 100,000 characters, with a note; an image over the size cap or not base64 is described, not sent", () => {
    const big = promptInput('p', {
      server: 's',
      messages: [{ role: 'user', content: { type: 'text', text: 'x'.repeat(100_010) } }],
    });
    assert.match(big.messages[0]!.content, /\n…\[cut: 10 more characters\]$/);
    const images = promptInput('p', {
      server: 's',
      messages: [
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: 'A'.repeat(2_000_004) } },
        { role: 'user', content: { type: 'image', mimeType: 'image/png', data: '"><script>' } },
      ],
    });
    assert.deepEqual(images.messages, [
      { role: 'user', content: '[image/png image: not sent]' },
      { role: 'user', content: '[image/png image: not sent]' },
    ]);
  });
});
