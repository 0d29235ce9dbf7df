import type { ChatMeta } from '../shared/protocol';

/**
 * What an empty chat shows: what MinAgent can do here, and example prompts built from the connected
 * servers' tools. Clicking one puts it in the input for the user to finish; nothing is sent.
 */
export class Welcome {
  private readonly root: HTMLElement;
  private readonly list: HTMLElement;
  private readonly hint: HTMLElement;

  constructor(
    before: HTMLElement,
    private readonly fill: (prompt: string) => void,
  ) {
    this.root = document.createElement('section');
    this.root.id = 'welcome';
    this.root.setAttribute('aria-label', 'Welcome');
    const title = document.createElement('h2');
    title.textContent = 'Ask MinAgent';
    this.hint = document.createElement('p');
    this.list = document.createElement('div');
    this.list.className = 'examples';
    this.root.append(title, this.hint, this.list);
    before.before(this.root);
  }

  /** The examples (from the host's meta); text only: tool names and descriptions are a server's words. */
  setExamples(examples: ChatMeta['examples']): void {
    const list = examples ?? [];
    this.hint.textContent = list.length
      ? 'It answers with the tools of your MCP servers, asking before it runs one that can change things. Try:'
      : 'It answers with the tools of your MCP servers. None is connected yet: see the Tools view.';
    this.list.replaceChildren(
      ...list.map((e) => {
        const b = document.createElement('button');
        b.className = 'example';
        // The prompt to finish ("Use echo to …"), and under it what the tool does, in its server's words.
        const prompt = document.createElement('span');
        prompt.className = 'example-prompt';
        prompt.textContent = `${e.prompt.trimEnd()} …`;
        b.append(prompt);
        if (e.description) {
          const about = document.createElement('span');
          about.className = 'example-about';
          about.textContent = e.description;
          b.append(about);
        }
        b.title = e.server ? `${e.tool} from ${e.server}` : e.tool;
        b.addEventListener('click', () => this.fill(e.prompt));
        return b;
      }),
    );
  }

  setEmpty(empty: boolean): void {
    this.root.hidden = !empty;
  }
}
