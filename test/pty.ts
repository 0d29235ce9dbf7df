// A real terminal for the CLI's tests: util-linux `script` gives the command a pty, so stdin and
// stderr are TTYs and the CLI asks its questions as it would for a user.
import { spawn } from 'node:child_process';

/**
 * Runs `argv` on a pty and answers each question (matched by its prompt) in turn, after `afterMs` when
 * given (a user who takes a while to read it); resolves with what the terminal showed.
 */
export function onTerminal(
  argv: string[],
  answers: Array<[prompt: string, answer: string, afterMs?: number]>,
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const command = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    let seen = 0;
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      while (answers.length) {
        const [prompt, answer, afterMs] = answers[0]!;
        const at = out.indexOf(prompt, seen);
        if (at < 0) break;
        seen = at + prompt.length;
        answers.shift();
        if (afterMs) setTimeout(() => child.stdin.write(`${answer}\n`), afterMs);
        else child.stdin.write(`${answer}\n`);
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out));
  });
}
