import type { ChatMessage } from '../src/core/agentTypes/messages';
import { ScriptedModel as Scripted } from '../src/core/agent/model';
import type { ToolSchema } from '../src/core/toolRegistry/toolRegistry';

/** The scripted provider, recording a copy of each request it was asked (`calls`), for tests. */
export class ScriptedModel extends Scripted {
  readonly calls: Array<{ messages: ChatMessage[]; tools: ToolSchema[] }> = [];

  protected override asked(messages: readonly ChatMessage[], tools: readonly ToolSchema[]): void {
    this.calls.push({ messages: structuredClone([...messages]), tools: structuredClone([...tools]) });
  }
}
