import { createInterface } from 'node:readline';
import { stderr } from './terminalText';

/**
 * Asks on the terminal without echoing the answer (a secret): the prompt on stderr, the typed
 * characters not written back. Only for a terminal: without one, nothing is asked.
 */
export function hiddenQuestion(text: string): Promise<string> {
  return new Promise((resolve) => {
    // The terminal stops echoing (raw mode) before the question shows: an answer typed at once is not shown either.
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Nothing of what is typed goes back to the terminal.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
    stderr(text);
    rl.once('line', (line) => {
      stderr('\n');
      // Resolved before close: closing says '' (the answer of a terminal that went away).
      resolve(line);
      rl.close();
    });
    rl.once('close', () => resolve(''));
  });
}
