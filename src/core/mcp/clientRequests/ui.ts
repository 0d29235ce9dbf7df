import type { FieldValue, FormField } from '../../../shared/form';

/**
 * What the core asks of whoever faces the user (the editor, the CLI) when a server asks the client
 * for something. Every text in these requests is the server's, already made plain (see
 * serverText.ts): a UI shows it as text, never as HTML or Markdown.
 */

/** A form-mode elicitation, read from the server's restricted schema. */
export interface FormAsk {
  server: string;
  message: string;
  fields: FormField[];
}

export type FormAnswer =
  | { action: 'accept'; content: Record<string, FieldValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A URL-mode elicitation: the user is asked before the URL is opened. */
export interface UrlAsk {
  server: string;
  message: string;
  /** The full URL (http or https only). */
  url: string;
  /** Its host, shown beside it. */
  host: string;
}

export type UrlAnswer = 'accept' | 'decline' | 'cancel';

/** A sampling request as the user sees it before it goes to their model. */
export interface SamplingAsk {
  server: string;
  /** The tool whose app asks (MCP Apps sampling), when it is a server's app and not the server. */
  app?: string;
  systemPrompt?: string;
  messages: Array<{ role: 'user' | 'assistant'; text: string }>;
  maxTokens: number;
  /** The model that would answer (the chat's current one). */
  model: string;
  /** The per-server limit the request is within. */
  limit: number;
}

/** `remember`: allow this server's later requests without asking (for the workspace, or the CLI run). */
export type SamplingAnswer = { allow: true; remember: boolean } | { allow: false };

/** What the user said once the URL was open: finished there, or not going on. */
export type UrlDone = 'done' | 'cancel';

export interface ClientRequestUi {
  /** Shows the form; `validate` is the core's check (field name to message), for messages as the user types. */
  askForm(
    ask: FormAsk,
    validate: (content: Record<string, unknown>) => Record<string, string>,
    signal: AbortSignal,
  ): Promise<FormAnswer>;
  askUrl(ask: UrlAsk, signal: AbortSignal): Promise<UrlAnswer>;
  /**
   * Opens a URL the user agreed to open (only ever called after askUrl answered accept); false when it was not opened
   * (the editor's own link check, declined).
   */
  openUrl(url: string): Promise<boolean>;
  /**
   * After the URL was opened for a 2026-07-28 server (an `input_required` round): waits until the user says they are
   * done in the browser, or cancels. The server's request stays open until then.
   */
  awaitUrlDone(ask: UrlAsk, signal: AbortSignal): Promise<UrlDone>;
  approveSampling(ask: SamplingAsk, signal: AbortSignal): Promise<SamplingAnswer>;
}
