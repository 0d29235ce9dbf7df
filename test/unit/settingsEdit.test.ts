// Adding a server (from a registry, Add Server, the CLI) and removing it edit one entry of the user's
// settings file: their comments, order, indentation and line ends stay, byte for byte.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'jsonc-parser';
import { editServerEntry } from '../../src/core/settingsEdit';

const NEW = {
  command: 'npx',
  args: ['-y', '@acme/server@1.0.0'],
  registry: { url: 'https://registry.example/', name: 'acme/server', version: '1.0.0' },
};

// A user's own file: four-space indent, comments, one-line and compact entries, a trailing comma.
const USER_FILE = `{
    // my editor
    "editor.tabSize": 4,
    "minagent.servers": {
        // the one I use daily
        "notes": { "command": "node", "args": ["notes.js"] },  // keep on one line
        "search": {"url": "http://localhost:3000/mcp"},
    },
    /* after */ "files.autoSave": "off"
}
`;

test('adding then removing a server leaves the settings file byte-identical', () => {
  const added = editServerEntry(USER_FILE, 'acme', NEW);
  assert.deepEqual((parse(added) as Record<string, Record<string, unknown>>)['minagent.servers']!.acme, NEW);
  assert.equal(editServerEntry(added, 'acme', undefined), USER_FILE);
});

test('adding a server inserts its entry on lines of its own, indented as the file is, and changes no other byte', () => {
  const added = editServerEntry(USER_FILE, 'acme', NEW);
  // After the last entry (and its trailing comma: the new one ends in one too); the user's text on either side as it
  // was.
  const at =
    USER_FILE.indexOf('"search": {"url": "http://localhost:3000/mcp"},') +
    '"search": {"url": "http://localhost:3000/mcp"},'.length;
  const entry = [
    '',
    '        "acme": {',
    '            "command": "npx",',
    '            "args": [',
    '                "-y",',
    '                "@acme/server@1.0.0"',
    '            ],',
    '            "registry": {',
    '                "url": "https://registry.example/",',
    '                "name": "acme/server",',
    '                "version": "1.0.0"',
    '            }',
    '        },',
  ].join('\n');
  assert.equal(added, USER_FILE.slice(0, at) + entry + USER_FILE.slice(at));
  // Without a trailing comma: one is added after the entry before it, and goes again with the new entry.
  const plain = '{\n  "minagent.servers": {\n    "a": {} // mine\n  }\n}\n';
  const second = editServerEntry(plain, 'b', { url: 'http://x' });
  assert.equal(
    second,
    '{\n  "minagent.servers": {\n    "a": {}, // mine\n    "b": {\n      "url": "http://x"\n    }\n  }\n}\n',
  );
  assert.equal(editServerEntry(second, 'b', undefined), plain);
});

test('tabs and CRLF line ends stay; a file without servers gets the key and loses it again', () => {
  const tabs = '{\r\n\t// tabs here\r\n\t"editor.insertSpaces": false\r\n}\r\n';
  const added = editServerEntry(tabs, 'acme', { command: 'node' });
  assert.equal(
    added,
    '{\r\n\t// tabs here\r\n\t"editor.insertSpaces": false,\r\n\t"minagent.servers": {\r\n\t\t"acme": {\r\n\t\t\t"command": "node"\r\n\t\t}\r\n\t}\r\n}\r\n',
  );
  assert.equal(editServerEntry(added, 'acme', undefined), tabs);
});

test('a servers object with a comment of the user is kept when its last entry goes; a .code-workspace keeps its settings under "settings"', () => {
  const commented = '{\n  "minagent.servers": {\n    // add yours here\n    "a": {}\n  }\n}\n';
  assert.equal(
    editServerEntry(commented, 'a', undefined),
    '{\n  "minagent.servers": {\n    // add yours here\n  }\n}\n',
  );
  const workspace =
    '{\n  "folders": [{ "path": "." }],\n  "settings": {\n    "minagent.servers": {\n      "a": {}\n    }\n  }\n}\n';
  const added = editServerEntry(workspace, 'b', { url: 'http://x' }, { under: ['settings'] });
  assert.deepEqual(Object.keys((parse(added) as { settings: Record<string, object> }).settings['minagent.servers']!), [
    'a',
    'b',
  ]);
  assert.equal(editServerEntry(added, 'b', undefined, { under: ['settings'] }), workspace);
});

test('settings nested as "minagent": { "servers": … } are edited there; text that is not JSONC is refused, naming the file', () => {
  const nested = '{ "minagent": { "servers": { "a": {} } } }';
  const added = editServerEntry(nested, 'b', { command: 'x' });
  assert.deepEqual(Object.keys((parse(added) as { minagent: { servers: object } }).minagent.servers), ['a', 'b']);
  assert.throws(
    () => editServerEntry('{ "a": ', 'b', {}, { path: '/ws/.vscode/settings.json' }),
    /\/ws\/\.vscode\/settings\.json:1:\d+: invalid JSONC/,
  );
});

test('updating an entry rewrites its value only; removing one between others takes its lines and nothing more', () => {
  const updated = editServerEntry(USER_FILE, 'notes', { command: 'node', args: ['notes.js', '--v2'] });
  assert.equal(
    updated,
    USER_FILE.replace(
      '{ "command": "node", "args": ["notes.js"] }',
      '{\n            "command": "node",\n            "args": [\n                "notes.js",\n                "--v2"\n            ]\n        }',
    ),
  );
  assert.equal(
    editServerEntry(USER_FILE, 'notes', undefined),
    USER_FILE.replace('        "notes": { "command": "node", "args": ["notes.js"] },  // keep on one line\n', ''),
  );
  assert.equal(editServerEntry(USER_FILE, 'absent', undefined), USER_FILE);
  assert.equal(
    editServerEntry('{}\n', 'a', { command: 'x' }),
    '{\n  "minagent.servers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n',
  );
});
