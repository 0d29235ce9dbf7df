import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { marked } from 'marked';
import { markdownCode, markdownText } from '../../src/shared/markdownText';

// Rendered with marked (GitHub-flavoured, as VS Code's hovers render a MarkdownString).
// VS Code first doubles the escape of an escaped theme icon, then renders the Markdown, then turns each
// "$(name)" left in the text into an icon unless a backslash precedes it.
const render = (text: string) =>
  marked.parse(
    markdownText(text).replace(/\\\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, (m) => `\\${m}`),
    { async: false },
  );
const iconsIn = (html: string) => html.match(/(?<!\\)\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi) ?? [];
const links = (html: string) => [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const shown = (html: string) =>
  html
    .replace(/\\\$\(/g, '$(')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();

describe('server text in a Markdown tooltip', () => {
  test('links, images, HTML and theme icons written by a server show as text', () => {
    const hostile = [
      'Click [here](command:workbench.action.closeWindow) now',
      '![t](https://evil.example/track.png)',
      '<a href="command:workbench.action.quit">quit</a> <img src=x onerror="alert(1)">',
      '<command:workbench.action.quit>',
      '[ref][1]\n\n[1]: command:workbench.action.quit',
      '`code` **bold** _it_ ~~gone~~ # not a heading',
      '$(loading~spin) $(info) ($(check))',
    ];
    for (const text of hostile) {
      const html = render(text);
      // A plain web address may be a link (VS Code asks before opening one); nothing else may.
      assert.ok(
        links(html).every((href) => href.startsWith('https://evil.example/')),
        `no link from ${JSON.stringify(text)}: ${html}`,
      );
      assert.doesNotMatch(
        html,
        /<(img|code|strong|em|del|h1|script)\b/,
        `no markup from ${JSON.stringify(text)}: ${html}`,
      );
      assert.equal(shown(html).replace(/\s+/g, ' '), text.replace(/\s+/g, ' '), `shown as written: ${html}`);
      assert.deepEqual(iconsIn(html), [], `no theme icon from ${JSON.stringify(text)}: ${html}`);
    }
  });

  test('a web address is one clean link, even in parentheses or at the end of a sentence', () => {
    const cases: Array<[string, string]> = [
      ['Docs (see https://example.com/docs).', 'https://example.com/docs'],
      ['at https://my-site.example/a_b/c-d?x=1&y=2#frag, then', 'https://my-site.example/a_b/c-d?x=1&y=2#frag'],
      ['(https://en.example.org/wiki/Foo_(bar))', 'https://en.example.org/wiki/Foo_(bar)'],
      ['http://localhost:8080/path!', 'http://localhost:8080/path'],
    ];
    for (const [text, href] of cases) {
      const html = render(text);
      assert.deepEqual(links(html), [href], `${JSON.stringify(text)}: ${html}`);
      assert.equal(shown(html), text, `shown as written: ${html}`);
    }
  });

  test('an address cannot carry Markdown into the tooltip', () => {
    for (const text of [
      'https://evil.example/[x](command:workbench.action.quit)',
      'https://evil.example/<img src=x>',
      'https://`x`.example',
      'https://(x)[y](command:a)',
    ]) {
      const html = render(text);
      assert.ok(
        links(html).every((href) => href.startsWith('https://')),
        `only web links from ${JSON.stringify(text)}: ${html}`,
      );
      assert.doesNotMatch(html, /command:[^"]*"|<img|<code/, `${JSON.stringify(text)}: ${html}`);
    }
  });

  test('lines keep their breaks and indentation', () => {
    const html = render('first line\n    indented\nlast');
    assert.doesNotMatch(html, /<pre/, 'an indented line is not a code block');
    assert.equal((html.match(/<p>/g) ?? []).length, 3, html);
  });

  test('a code span holds any text, backticks included', () => {
    for (const text of ['node server.js', 'a ` b `` c', '`[x](command:a)`', ' spaced ']) {
      const html = marked.parseInline(markdownCode(text), { async: false });
      const inner = /^<code>(.*)<\/code>$/s.exec(html)?.[1];
      assert.ok(inner !== undefined, `one code span: ${html}`);
      assert.equal(
        inner
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&amp;/g, '&'),
        text,
        html,
      );
    }
  });
});
