// 6. Size: our bundles and the .vsix against the SDK client's own minified bundle (the yardstick).
import { statSync } from 'node:fs';
import { build } from 'esbuild';
import { record } from './results';

export async function benchSize(): Promise<void> {
  const sdk = await build({
    entryPoints: ['node_modules/@modelcontextprotocol/client/dist/index.mjs'],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  const sdkBytes = sdk.outputFiles[0]!.contents.length;
  const kb = (n: number) => n / 1024;
  const size = (f: string) => statSync(f).size;
  record('size', 'minified bundles (KB)', {
    sdkClientKb: kb(sdkBytes),
    extensionKb: kb(size('dist/extension.js')),
    extensionOverSdk: size('dist/extension.js') / sdkBytes,
    cliKb: kb(size('dist/cli.js')),
    webviewKb: kb(size('dist/webview.js')),
    vsixKb: kb(size('minagent.vsix')),
  });
}
