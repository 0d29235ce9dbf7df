import { createInterface } from 'node:readline';
import { stderr } from './terminalText';

/**
 * Asks on the terminal without echoing the answer (a secret): the prompt on stderr, the typed
 * characters not written back. Only for a terminal: without one, nothing is asked.
 */
export function hiddenQuestion(text: string): Promise<string> {
  return new Promise((resolve) => {
    stderr(text);
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Nothing of what is typed goes back to the terminal.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
    rl.once('line', (line) => {
      stderr('\n');
      rl.close();
      resolve(line);
    });
    rl.once('close', () => resolve(''));
  });
}
