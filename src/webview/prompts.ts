import type { HostMessage, PromptChoice, WebviewRequest } from '../shared/protocol';
import { PromptForm } from './promptForm';
import { SlashMenu } from './slashMenu';

type Completions = Extract<HostMessage, { type: 'completions' }>;
type Reply = Extract<HostMessage, { type: 'reply' }>;

/**
 * Server prompts in the chat: the `/` menu on the input, the argument form, and the requests they
 * make of the host (completions, and running the prompt), matched to their answers by request id.
 */
export class PromptUi {
  readonly menu: SlashMenu;
  readonly form: PromptForm;
  private readonly completions = new Map<number, (m: Completions) => void>();
  private readonly runs = new Map<number, (error: string | undefined) => void>();

  constructor(
    private readonly input: HTMLTextAreaElement,
    /** Posts a request and returns its id. */
    private readonly send: (request: WebviewRequest) => number,
  ) {
    this.form = new PromptForm({
      complete: (prompt, argument, value, context) =>
        new Promise((resolve) =>
          this.completions.set(this.send({ type: 'completePrompt', prompt, argument, value, context }), (m) =>
            resolve({ values: m.values, ...(m.error ? { error: m.error } : {}) }),
          ),
        ),
      run: (prompt, args) => this.run(prompt, args),
      closed: () => this.input.focus(),
    });
    this.menu = new SlashMenu(input, (p) => this.pick(p));
  }

  /** The menu and the form, to be placed above the input. */
  get elements(): HTMLElement[] {
    return [this.menu.el, this.form.el];
  }

  setPrompts(prompts: readonly PromptChoice[]): void {
    this.menu.setPrompts(prompts);
  }

  private pick(prompt: PromptChoice): void {
    this.input.value = '';
    this.input.dispatchEvent(new Event('input'));
    // A prompt without arguments runs at once; otherwise its form asks for them.
    if (prompt.arguments.length) this.form.open(prompt);
    else void this.run(prompt.name, {});
  }

  private run(prompt: string, args: Record<string, string>): Promise<string | undefined> {
    return new Promise((resolve) => this.runs.set(this.send({ type: 'runPrompt', prompt, arguments: args }), resolve));
  }

  /** Takes the host's answers to this UI's requests; false for any other message. */
  handle(m: Completions | Reply): boolean {
    if (m.type === 'completions') {
      this.completions.get(m.requestId)?.(m);
      return this.completions.delete(m.requestId);
    }
    const run = this.runs.get(m.requestId);
    if (run) {
      this.runs.delete(m.requestId);
      run(m.error);
      // The form shows its own error; a prompt without a form says it in the chat.
      return this.form.isOpen;
    }
    // A completion request that failed before any answer: no values, and no error in the chat.
    const pending = this.completions.get(m.requestId);
    if (!pending) return false;
    pending({ type: 'completions', requestId: m.requestId, values: [], ...(m.error ? { error: m.error } : {}) });
    return this.completions.delete(m.requestId);
  }
}
