import type { Client } from '@modelcontextprotocol/client';
import type { Logger } from '../../base/logger';
import type { SafeIcon } from '../../toolRegistry/toolTypes';

/** What every read, get or completion resolves to when it fails: never a throw. */
export interface FeatureError {
  error: string;
}

export function isFeatureError(value: unknown): value is FeatureError {
  return typeof value === 'object' && value !== null && typeof (value as FeatureError).error === 'string';
}

/** A resource a server listed. Resources are addressed by (server, uri): URIs cannot be prefixed. */
export interface McpResource {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, as the server states it. */
  size?: number;
  icons: SafeIcon[];
}

export interface McpResourceTemplate {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** The template's variable names (RFC 6570), for a form. */
  variables: string[];
  icons: SafeIcon[];
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

export interface McpPrompt {
  server: string;
  /** The server's own name for the prompt. */
  remoteName: string;
  title?: string;
  description?: string;
  arguments: McpPromptArgument[];
  icons: SafeIcon[];
}

/** One part of a read resource. Text past the cap is cut (`truncated` says how much was there). */
export interface ResourceContent {
  uri: string;
  mimeType?: string;
  text?: string;
  /** Base64, when the part is binary and within the cap. */
  blob?: string;
  /** Size of the whole part in bytes (text as UTF-8, blob decoded). */
  size: number;
  /** Set when text or blob was cut or dropped: the characters kept of the total. */
  truncated?: { kept: number; total: number };
  /** The part's `_meta` as the server sent it (an app's policy is there), when it is a small object. */
  meta?: Record<string, unknown>;
}

export interface ReadResourceResult {
  server: string;
  uri: string;
  contents: ResourceContent[];
}

export interface PromptResult {
  server: string;
  description?: string;
  /** The server's messages as it sent them (text, images, audio, embedded resources, links). */
  messages: Array<{ role: 'user' | 'assistant'; content: { type: string } & Record<string, unknown> }>;
}

export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** What a completion is asked for: a prompt's argument or a resource template's variable. */
export type CompletionRef = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** The server as the UI shows it: its own name, title, version and safe icons. */
export interface ServerIdentityInfo {
  name?: string;
  title?: string;
  version?: string;
  websiteUrl?: string;
  icons: SafeIcon[];
}

/** What the features of one server need from its source. */
export interface FeatureHost {
  /** The client while the server runs; undefined otherwise. */
  client(): Client | undefined;
  timeoutMs(): number;
  /** Why a request failed, in the same words a tool call would use. */
  describe(err: unknown): Promise<string>;
  log: Logger;
  /** The server's redaction, for the text of a failure that did not come in a message (an HTTP error body). */
  redact?(text: string): string;
}
