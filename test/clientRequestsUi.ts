// A UI for the core's client requests that answers from a script and records what it was shown:
// the user's part in the integration tests (the editor and the CLI have their own, tested apart).
import type { ChatModel, ModelTurn, ChatRequestOptions } from '../src/core/agent/model';
import type { ChatMessage } from '../src/core/agentTypes/messages';
import type {
  ClientRequestUi,
  FormAnswer,
  FormAsk,
  SamplingAnswer,
  SamplingAsk,
  UrlAnswer,
  UrlAsk,
  UrlDone,
} from '../src/core/mcp/clientRequests/ui';

export class ScriptedUi implements ClientRequestUi {
  forms: Array<{ ask: FormAsk; errors: Record<string, string> }> = [];
  urls: UrlAsk[] = [];
  opened: string[] = [];
  samplings: SamplingAsk[] = [];
  form: (ask: FormAsk, validate: (c: Record<string, unknown>) => Record<string, string>) => FormAnswer = () => ({
    action: 'cancel',
  });
  url: UrlAnswer = 'decline';
  sampling: SamplingAnswer = { allow: false };
  /** Awaited before a form is answered: a user who takes their time. */
  formGate: Promise<void> = Promise.resolve();

  async askForm(ask: FormAsk, validate: (c: Record<string, unknown>) => Record<string, string>): Promise<FormAnswer> {
    await this.formGate;
    const answer = this.form(ask, validate);
    this.forms.push({ ask, errors: answer.action === 'accept' ? validate(answer.content) : {} });
    return answer;
  }
  async askUrl(ask: UrlAsk): Promise<UrlAnswer> {
    this.urls.push(ask);
    return this.url;
  }
  /** Whether the URL opens (the editor's own link check may be declined). */
  opens = true;
  async openUrl(url: string): Promise<boolean> {
    this.opened.push(url);
    return this.opens;
  }
  /** What the user says once the URL is open, for a 2026-07-28 round; the asks that waited for it. */
  urlDone: UrlDone = 'done';
  waitedForDone: UrlAsk[] = [];
  async awaitUrlDone(ask: UrlAsk): Promise<UrlDone> {
    this.waitedForDone.push(ask);
    return this.urlDone;
  }
  async approveSampling(ask: SamplingAsk): Promise<SamplingAnswer> {
    this.samplings.push(ask);
    return this.sampling;
  }
}

/** A model that answers every request with one text and records the requests and their limits. */
export class EchoModel implements ChatModel {
  readonly id = 'echo-model';
  calls: Array<{ messages: ChatMessage[]; maxOutputTokens?: number }> = [];
  constructor(private readonly answer: (messages: readonly ChatMessage[]) => string) {}
  async chat(messages: readonly ChatMessage[], _tools: unknown, options: ChatRequestOptions = {}): Promise<ModelTurn> {
    this.calls.push({
      messages: [...messages],
      ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
    });
    const text = this.answer(messages);
    // Streams in pieces, as a provider does, and stops when told to.
    for (let i = 0; i < text.length; i += 50) {
      if (options.signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
      options.onText?.(text.slice(i, i + 50));
    }
    return { text, toolCalls: [] };
  }
}
