// One editor for the tests of one file that need the same set-up (an editor costs ~30 CPU-s to open, and the
// suite is CPU-bound): opened by the first test that asks, closed after the file; a test that did not pass
// leaves the next one a fresh editor.
import { after } from 'node:test';
import type { CodeServer } from './codeServer';
import { Workbench } from './workbench';

export interface FileEditor {
  /**
   * The editor, with `prepare` run on it: on a fresh one before its window opens (the extension reads what
   * it wrote as it starts), on the shared one at once (it follows the change). Call `passed()` at the end
   * of the test.
   */
  get(prepare?: (cs: CodeServer) => void): Promise<{ cs: CodeServer; wb: Workbench; passed: () => void }>;
}

export function fileEditor(
  start: () => Promise<CodeServer>,
  cleanup: () => void | Promise<void> = () => {},
): FileEditor {
  let shared: { cs: CodeServer; wb: Workbench; clean: boolean } | undefined;
  const close = async () => {
    const editor = shared;
    shared = undefined;
    await editor?.wb.close();
    await editor?.cs.stop();
  };
  after(async () => {
    await close();
    await cleanup();
  });
  return {
    async get(prepare = () => {}) {
      if (shared && !shared.clean) await close();
      if (!shared) {
        const cs = await start();
        try {
          prepare(cs);
          shared = { cs, wb: await Workbench.open(cs.url), clean: false };
        } catch (err) {
          await cs.stop();
          throw err;
        }
      } else prepare(shared.cs);
      const editor = shared;
      editor.clean = false;
      return { cs: editor.cs, wb: editor.wb, passed: () => void (editor.clean = true) };
    },
  };
}
