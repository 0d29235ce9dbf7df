import { parseTyped } from '../core/mcp/clientRequests/formSchema';
import { initialValues, type FieldValue, type FormField } from '../shared/form';
import type { ClientRequestUi, FormAnswer, SamplingAnswer, UrlAnswer, UrlDone } from '../core/mcp/clientRequests/ui';
import type { Terminal } from './approve';
import { indentLines, terminalLine } from './terminalText';

/**
 * `ask` (the default on a terminal): forms, URLs and sampling are asked on the terminal.
 * `defaults`: a form is accepted with its defaults (declined when a required field has none);
 * URLs and sampling are declined. `decline` (the default without a terminal): everything is
 * declined, with a note that says how to answer.
 */
export type ServerAskMode = 'ask' | 'defaults' | 'decline';
export const SERVER_ASK_MODES: readonly ServerAskMode[] = ['ask', 'defaults', 'decline'];

const NO_TERMINAL = 'run on a terminal to answer';

/** The CLI's side of servers' requests: questions on stderr, one at a time, answers from stdin. */
export function cliClientRequestUi(mode: ServerAskMode, terminal: Terminal): ClientRequestUi {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run);
    queue = next.catch(() => undefined);
    return next;
  };
  const yes = (line: string) => /^(y|yes)$/i.test(line.trim());
  return {
    askForm: (ask, validate, signal) =>
      serial(async (): Promise<FormAnswer> => {
        const what = `server "${terminalLine(ask.server)}" asks for a form: ${indentLines(ask.message)}`;
        if (mode !== 'ask') {
          const content = initialValues(ask.fields);
          const missing = Object.keys(validate(content));
          if (mode === 'defaults' && !missing.length) {
            terminal.note(`${what}\n  answered with its defaults: ${JSON.stringify(content)}`);
            return { action: 'accept', content };
          }
          terminal.note(
            `declined: ${what}${mode === 'defaults' ? ` (no default for ${missing.join(', ')})` : ''}; ${NO_TERMINAL}, or pass --elicitation defaults`,
          );
          return { action: 'decline' };
        }
        terminal.note(what);
        const start = (await terminal.question('Answer it? [y]es, [d]ecline, [c]ancel: ', signal)).trim().toLowerCase();
        if (start === 'd' || start === 'decline') return { action: 'decline' };
        if (!yes(start)) return { action: 'cancel' };
        const content: Record<string, FieldValue> = {};
        for (const field of ask.fields) {
          for (let tries = 0; ; tries++) {
            if (signal.aborted) return { action: 'cancel' };
            const typed = await terminal.question(prompt(field), signal);
            const value = parseTyped(field, typed);
            const probe = { ...content, ...(value === undefined ? {} : { [field.name]: value }) };
            const error = validate(probe)[field.name];
            if (!error) {
              if (value !== undefined) content[field.name] = value;
              break;
            }
            terminal.note(`  ${error}`);
            if (tries === 2) return { action: 'cancel' };
          }
        }
        return { action: 'accept', content };
      }),
    askUrl: (ask, signal) =>
      serial(async (): Promise<UrlAnswer> => {
        const what = `server "${terminalLine(ask.server)}" asks you to open a URL: ${indentLines(ask.message)}\n  URL:  ${terminalLine(ask.url)}\n  host: ${terminalLine(ask.host)}`;
        if (mode !== 'ask') {
          terminal.note(`declined: ${what}\n  (${NO_TERMINAL})`);
          return 'decline';
        }
        terminal.note(what);
        return yes(await terminal.question('Open it? [y]es, [n]o: ', signal)) ? 'accept' : 'decline';
      }),
    openUrl: async (url) => {
      terminal.note(`Open this URL in your browser: ${url}`);
      return true;
    },
    awaitUrlDone: (ask, signal) =>
      serial(async (): Promise<UrlDone> => {
        const answer = await terminal.question(
          `server "${terminalLine(ask.server)}" waits while you finish on ${terminalLine(ask.host)}: [d]one, [c]ancel: `,
          signal,
        );
        return /^d(one)?$/i.test(answer.trim()) ? 'done' : 'cancel';
      }),
    approveSampling: (ask, signal) =>
      serial(async (): Promise<SamplingAnswer> => {
        const lines = [
          `server "${terminalLine(ask.server)}" asks to send this to your model (${ask.model}), for up to ${ask.maxTokens} tokens (its limit: ${ask.limit}):`,
          ...(ask.systemPrompt ? [`  [system] ${indentLines(ask.systemPrompt)}`] : []),
          ...ask.messages.map((m) => `  [${terminalLine(m.role)}] ${indentLines(m.text)}`),
        ];
        if (mode !== 'ask') {
          terminal.note(`denied: ${lines.join('\n')}\n  (${NO_TERMINAL})`);
          return { allow: false };
        }
        terminal.note(lines.join('\n'));
        const line = (await terminal.question('Send it? [y]es, [n]o, [a]lways for this server (this run): ', signal))
          .trim()
          .toLowerCase();
        if (line === 'a' || line === 'always') return { allow: true, remember: true };
        return yes(line) ? { allow: true, remember: false } : { allow: false };
      }),
  };
}

function prompt(field: FormField): string {
  const hints: string[] = [];
  if (field.kind === 'enum' || field.kind === 'multi')
    hints.push(
      `${field.kind === 'multi' ? 'some of, comma-separated' : 'one of'}: ${field.options.map((o) => (o.label === o.value ? o.value : `${o.value} (${o.label})`)).join(', ')}`,
    );
  if (field.kind === 'boolean') hints.push('y/n');
  if (field.kind === 'number') hints.push(field.integer ? 'a whole number' : 'a number');
  if (field.kind === 'string' && field.format) hints.push(field.format);
  if (field.default !== undefined)
    hints.push(`Enter for ${Array.isArray(field.default) ? field.default.join(', ') : String(field.default)}`);
  const desc = field.description ? ` - ${field.description}` : '';
  return terminalLine(
    `  ${field.label}${field.required ? ' (required)' : ''}${desc}${hints.length ? ` [${hints.join('; ')}]` : ''}: `,
  );
}
