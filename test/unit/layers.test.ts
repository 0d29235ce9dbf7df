// The layering of src/ (docs/ARCHITECTURE.md), checked on the real import graph: arrows point down
// only (extension, cli -> core -> shared; webview -> shared), only the extension imports 'vscode', and
// no file reaches itself through its imports. Every form of import counts: `import`, `import type`,
// `export ... from`, `import()` and `import('...')` types, as the TypeScript compiler lists them.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import type { StringLiteralLikeNode } from 'typescript/unstable/ast';
import type { API as TsApi } from 'typescript/unstable/sync';
import { ROOT } from '../helpers';

const SRC = join(ROOT, 'src');
type Layer = 'shared' | 'core' | 'cli' | 'extension' | 'webview';
/** What each layer may import of ours, besides itself. */
const BELOW: Record<Layer, Layer[]> = {
  shared: [],
  core: ['shared'],
  cli: ['core', 'shared'],
  extension: ['core', 'shared'],
  webview: ['shared'],
};
/** The layers bundled for the webview (a browser). */
const BROWSER: Layer[] = ['shared', 'webview'];
/** The only layer that talks to the editor. */
const EDITOR: Layer = 'extension';

interface Edge {
  from: string;
  /** The specifier as written. */
  spec: string;
  /** The file it names under src/, if it is ours. */
  to?: string;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const name = (file: string): string => relative(SRC, file);
const layerOf = (file: string): Layer => name(file).split('/')[0] as Layer;

/** The file a relative specifier names, as the bundler finds it: `x.ts`, or `x/index.ts`. */
function target(from: string, spec: string, known: Set<string>): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts')].find((f) => known.has(f));
}

let api: TsApi | undefined;
let edges: Edge[] = [];
let sources: string[] = [];

before(async () => {
  // The compiler's own parser (TypeScript 7, an ES module), so every form of import is found as tsc finds it.
  const { API } = await import('typescript/unstable/sync');
  api = new API({ cwd: ROOT });
  const program = api.updateSnapshot({ openProject: join(ROOT, 'tsconfig.json') }).getProjects()[0]!.program;
  sources = files(SRC);
  const known = new Set(sources);
  edges = sources.flatMap((from) => {
    const file = program.getSourceFile(from);
    assert.ok(file, `${name(from)} is in the project (tsconfig.json includes src)`);
    return file.imports.map((node) => {
      // The compiler lists each import's module specifier, a string literal.
      const spec = (node as StringLiteralLikeNode).text;
      return { from, spec, ...(spec.startsWith('.') ? { to: target(from, spec, known) } : {}) };
    });
  });
});
after(() => api?.close());

test('the graph is the whole of src/', () => {
  assert.ok(sources.length > 100 && edges.length > 300, `${sources.length} files, ${edges.length} imports`);
  const layers = new Set(sources.map(layerOf));
  assert.deepEqual([...layers].sort(), Object.keys(BELOW).sort(), 'every file under src/ is in one of the layers');
  assert.deepEqual(
    edges
      .filter((e) => e.spec.startsWith('.') && !e.to)
      .map((e) => `${name(e.from)} imports ${e.spec}, which is no file`),
    [],
  );
});

test('each layer imports only itself and the layers below it; only the extension imports vscode; nothing bundled for the webview imports Node', () => {
  const wrong = edges.flatMap(({ from, spec, to }) => {
    const layer = layerOf(from);
    if (to && layerOf(to) !== layer && !BELOW[layer].includes(layerOf(to)))
      return [
        `${name(from)} imports ${spec} (${name(to)}): ${layer} may import ${BELOW[layer].join(', ') || 'nothing of ours'}`,
      ];
    if (spec === 'vscode' && layer !== EDITOR) return [`${name(from)} imports vscode: only src/${EDITOR} may`];
    if (BROWSER.includes(layer) && isBuiltin(spec))
      return [`${name(from)} imports ${spec}: src/${layer} runs in the webview, which has no Node`];
    return [];
  });
  assert.deepEqual(wrong, []);
});

test('no import circles in src/', () => {
  const next = new Map<string, string[]>(sources.map((f) => [f, []]));
  for (const e of edges) if (e.to) next.get(e.from)!.push(e.to);
  const circles = stronglyConnected(next)
    .filter((group) => group.length > 1 || next.get(group[0]!)!.includes(group[0]!))
    .map((group) => {
      const circle = circleThrough(group, next);
      const others = group
        .filter((f) => !circle.includes(f))
        .map(name)
        .sort();
      return circle.map(name).join(' -> ') + (others.length ? ` (and in the same circle: ${others.join(', ')})` : '');
    });
  assert.deepEqual(circles, []);
});

// Folders inside src/core form layers of their own: a folder that imports another is never imported by it,
// by way of any others (`core` is the files at the root of src/core).
test('no import circles between the folders of src/core', () => {
  const CORE = join(SRC, 'core');
  const folderOf = (file: string): string => relative(CORE, dirname(file)) || 'core';
  const inCore = (file: string): boolean => layerOf(file) === 'core';
  /** Folder -> folder -> the file imports that make that arrow. */
  const arrows = new Map<string, Map<string, string[]>>();
  for (const f of sources.filter(inCore)) arrows.set(folderOf(f), new Map());
  for (const { from, spec, to } of edges) {
    if (!to || !inCore(from) || !inCore(to) || folderOf(from) === folderOf(to)) continue;
    const why = arrows.get(folderOf(from))!;
    why.set(folderOf(to), [...(why.get(folderOf(to)) ?? []), `${name(from)} imports ${spec}`]);
  }
  const next = new Map([...arrows].map(([folder, to]) => [folder, [...to.keys()]]));
  const groups = stronglyConnected(next).filter((group) => group.length > 1);
  const circles = groups
    .map((group) => [...group].sort())
    .map((group) => {
      const circle = circleThrough(group, next);
      const steps = circle
        .slice(1)
        .map((to, i) => `  ${circle[i]} -> ${to}: ${arrows.get(circle[i]!)!.get(to)!.join('; ')}`);
      return `${circle.join(' -> ')} (all of: ${group.join(', ')})\n${steps.join('\n')}`;
    });
  assert.deepEqual(circles, [], 'folders of src/core that import one another');
});

/** Tarjan's strongly connected components: each group of files that reach one another. */
function stronglyConnected(next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const groups: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(w);
    } while (w !== v);
    groups.push(group);
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return groups;
}

/** One circle inside a strongly connected group, from its first file back to it, for the message. */
function circleThrough(group: string[], next: Map<string, string[]>): string[] {
  const inGroup = new Set(group);
  const start = [...group].sort()[0]!;
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of next.get(v)!.filter((f) => inGroup.has(f))) {
      if (w === start) {
        const path = [start];
        for (let u = v; u !== start; u = from.get(u)!) path.splice(1, 0, u);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return group;
}
