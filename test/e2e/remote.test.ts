// A remote window, as a user of code-server on another machine has it: the browser reaches the editor under a name
// of its own, through a reverse proxy, and cannot reach the extension host's loopback at all. The official clock app
// (the vanilla example's get-time) still renders in the chat, served through the editor's own forwarding.
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe } from 'node:test';
import { listeningFixture, ROOT, waitFor } from '../helpers';
import { startCodeServer } from './codeServer';
import { ask } from './chatSteps';
import { e2eTest } from './prereqs';
import { staged, Workbench } from './workbench';

const VANILLA = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-basic-vanillajs', 'dist', 'index.js');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The browser's only way out (asked for loopback addresses too): an HTTP proxy that serves one name (`host`, the
 * editor as the browser knows it) from code-server's port, keeping the browser's Host as a reverse proxy does, and
 * refuses every other address (the extension host's loopback first among them); `refused` lists what it refused.
 */
async function onlyTheEditor(
  editorPort: number,
): Promise<{ url: string; host: string; refused: string[]; close(): void }> {
  const refused: string[] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `editor.localhost:${(server.address() as AddressInfo).port}`;
  server.on('request', (req, res) => {
    const target = new URL(req.url ?? '/', 'http://unknown');
    if (target.host !== host) {
      refused.push(target.host);
      res.writeHead(403).end();
      return;
    }
    const upstream = request(
      {
        host: '127.0.0.1',
        port: editorPort,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  // The editor's WebSocket comes as a tunnel (CONNECT host:port).
  server.on('connect', (req, socket, head) => {
    if (req.url !== host) {
      refused.push(req.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = connect(editorPort, '127.0.0.1', () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(socket).pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    host,
    refused,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe('a remote window', () => {
  e2eTest(
    'the clock app renders when the browser reaches the editor only through a proxy under another name',
    async () => {
      const mock = await listeningFixture('fixtures/models/mock-model.mjs');
      const cs = await startCodeServer({
        workspace: 'e2e',
        workspaceSettings: { 'minagent.servers': { vanilla: { command: 'node', args: [VANILLA, '--stdio'] } } },
        userSettings: {
          'minagent.chat.provider': 'openai',
          'minagent.chat.baseUrl': `http://127.0.0.1:${mock.port}/v1`,
          'minagent.chat.model': 'mock-model',
        },
      });
      const proxy = await onlyTheEditor(Number(new URL(cs.url).port));
      let w: Workbench | undefined;
      const stage = staged('remote', () => w);
      try {
        const origin = `http://${proxy.host}`;
        // A name under .localhost: the editor needs a secure context (its webviews hash with crypto.subtle), which a
        // real remote gets from https and this one from its name (headless Chromium ignores
        // --unsafely-treat-insecure-origin-as-secure). The browser still reaches it only through the proxy.
        w = await Workbench.open(`${origin}/${new URL(cs.url).search}`, { through: proxy.url });
        const wb = w;
        await wb.openMinAgent();
        await wb.waitForRows(
          'the clock server running',
          (rows) => rows.some((r) => /^vanilla\b.*1 tool/.test(r)),
          120_000,
        );
        const chat = await wb.webview();
        await chat.locator('#model option', { hasText: 'mock-model' }).waitFor({ state: 'attached' });

        await stage('1-app-through-the-forwarding', async () => {
          await ask(chat, 'What time is it?');
          await chat
            .locator('.card.status-waiting', { hasText: 'get-time' })
            .locator('button', { hasText: 'Allow once' })
            .click();
          const card = chat.locator('.card.status-done', { hasText: 'get-time' });
          const result = (await card.locator('.card-result').innerText()).split('\n')[0]!.trim();
          assert.match(result, ISO);
          await card.locator('.app-consent button', { hasText: 'Show Apps of "vanilla"' }).click();
          const frame = card.locator('.app-host iframe');
          await frame.waitFor();
          // Served through code-server's forwarding of the app server's port, under the name the browser knows.
          assert.match(
            (await frame.getAttribute('src')) ?? '',
            new RegExp(`^${origin.replace(/\./g, '\\.')}/proxy/\\d+/app/[A-Za-z0-9_-]{32}$`),
          );
          const app = chat.frameLocator('.app-host iframe');
          await waitFor(
            'the clock app to show the tool result',
            async () =>
              (await app
                .locator('#server-time')
                .innerText()
                .catch(() => '')) === result,
            60_000,
          );
          assert.deepEqual(
            proxy.refused.filter((h) => /^(127\.0\.0\.1|localhost)\b/.test(h)),
            [],
            'the browser never asked for the loopback',
          );
          await wb.screenshot('remote-clock');
        });
      } finally {
        await w?.close();
        proxy.close();
        await cs.stop();
        mock.child.stdin!.end();
      }
    },
  );
});
