import type { FieldValue, FormField } from './form';
/**
 * A server's request to the user, shown as a card in the chat: an elicitation form, or a sampling
 * request to approve. Every text in it is the server's and is rendered as text only.
 */
export type AskView =
  | { kind: 'form'; id: string; server: string; message: string; fields: FormField[] }
  | {
      kind: 'sampling';
      id: string;
      server: string;
      /** The tool whose app asks, when an app asks and not its server. */
      app?: string;
      model: string;
      maxTokens: number;
      limit: number;
      systemPrompt?: string;
      messages: Array<{ role: 'user' | 'assistant'; text: string }>;
    };

/**
 * The user's answer from the card. Forms: accept (with the values), decline, cancel; sampling: allow (remembered or
 * not) or deny.
 */
export type AskAnswer =
  | { action: 'accept'; content: Record<string, FieldValue> }
  | { action: 'decline' }
  | { action: 'cancel' }
  | { action: 'allow'; remember: boolean }
  | { action: 'deny' };
