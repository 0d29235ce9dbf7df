import * as vscode from 'vscode';
import { abortError, type ChatModel, type ChatRequestOptions, type ModelTurn } from '../../core/agent/model';
import type { ChatMessage, ToolCall } from '../../core/agentTypes/messages';
import { IdleWatch } from '../../core/models/idle';
import type { ModelLimits } from '../../core/budget/limits';
import { CachedCounter, type TokenCounter } from '../../core/budget/tokens';
import type { ToolSchema } from '../../core/toolRegistry/toolRegistry';

/**
 * A `vscode.lm` model (Copilot or any extension's provider) as a core ChatModel: tools go as
 * LanguageModelChatTool, calls come back as LanguageModelToolCallPart, results go back as
 * LanguageModelToolResultPart (text, and images as LanguageModelDataPart). VS Code asks the user for
 * consent on the first request.
 */
export class LanguageModelAdapter implements ChatModel {
  readonly id: string;

  private readonly counter: TokenCounter;

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.id = `lm:${model.id}`;
    this.counter = new CachedCounter({
      label: "the model's own count",
      exact: true,
      count: async (text) => model.countTokens(text),
    });
  }

  /** vscode.lm says how much input a model takes (the answer has its own room) and counts for itself. */
  async limits(): Promise<ModelLimits> {
    return {
      window: { tokens: this.model.maxInputTokens, source: "the model's input limit", inputOnly: true },
      counter: this.counter,
    };
  }

  async chat(
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    options: ChatRequestOptions = {},
  ): Promise<ModelTurn> {
    const cts = new vscode.CancellationTokenSource();
    const idle = new IdleWatch(options.signal, options.idleTimeoutMs);
    const onAbort = () => cts.cancel();
    if (idle.signal.aborted) cts.cancel();
    else idle.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.model.sendRequest(
        toLm(messages),
        {
          justification: 'MinAgent sends your question and the results of MCP tool calls to the model you picked.',
          tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.parameters })),
        },
        cts.token,
      );
      let text = '';
      const toolCalls: ToolCall[] = [];
      for await (const part of response.stream) {
        idle.touch();
        if (part instanceof vscode.LanguageModelTextPart) {
          text += part.value;
          options.onText?.(part.value);
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          toolCalls.push({ id: part.callId, name: part.name, arguments: part.input as Record<string, unknown> });
        }
      }
      if (idle.timedOut) throw new Error(idle.message(this.model.name));
      return { text, toolCalls };
    } catch (err) {
      if (options.signal?.aborted) throw abortError();
      if (idle.timedOut) throw new Error(idle.message(this.model.name));
      if (err instanceof vscode.LanguageModelError) throw new Error(`${this.model.name}: ${err.message} (${err.code})`);
      throw err;
    } finally {
      idle.signal.removeEventListener('abort', onAbort);
      idle.dispose();
      cts.dispose();
    }
  }
}

function toLm(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const m of messages) {
    switch (m.role) {
      case 'system': // vscode.lm has no system role: the instructions lead the first user message
        out.push(vscode.LanguageModelChatMessage.User(m.content));
        break;
      case 'user':
        // Images from a server's prompt go beside the text, as in a tool result.
        out.push(
          vscode.LanguageModelChatMessage.User(
            m.images?.length
              ? [
                  new vscode.LanguageModelTextPart(m.content),
                  ...m.images.map((i) => vscode.LanguageModelDataPart.image(Buffer.from(i.data, 'base64'), i.mimeType)),
                ]
              : m.content,
          ),
        );
        break;
      case 'assistant': {
        const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
        if (m.content) parts.push(new vscode.LanguageModelTextPart(m.content));
        for (const c of m.toolCalls ?? [])
          parts.push(
            new vscode.LanguageModelToolCallPart(
              c.id,
              c.name,
              typeof c.arguments === 'string' ? safeObject(c.arguments) : c.arguments,
            ),
          );
        out.push(vscode.LanguageModelChatMessage.Assistant(parts));
        break;
      }
      case 'tool': {
        // Images a tool returned go beside its text, as data parts the model can look at.
        const images = (m.images ?? []).map((i) =>
          vscode.LanguageModelDataPart.image(Buffer.from(i.data, 'base64'), i.mimeType),
        );
        out.push(
          vscode.LanguageModelChatMessage.User([
            new vscode.LanguageModelToolResultPart(m.toolCallId, [
              new vscode.LanguageModelTextPart(m.content),
              ...images,
            ]),
          ]),
        );
        break;
      }
    }
  }
  return out;
}

function safeObject(text: string): object {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? v : {};
  } catch {
    return {};
  }
}
