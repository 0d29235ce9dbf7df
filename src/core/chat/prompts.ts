import type { ChatMessage } from '../agentTypes/messages';
import type { Event } from '../base/event';
import type { NamedPrompt } from '../mcp/hub/catalog';
import { isFeatureError, type Completion, type FeatureError, type PromptResult } from '../mcp/features/featureTypes';
import { describeContent } from '../mcp/features/prompts';
import type { ToolImage } from '../toolRegistry/toolRegistry';
import type { PromptChoice, PromptMessageView } from '../../shared/protocol';
import { SHOWN_IMAGE } from '../../shared/validatePrompts';

/** What the chat needs of the hub's catalog. */
export interface PromptCatalog {
  prompts(): NamedPrompt[];
  getPrompt(name: string, args: Record<string, string>): Promise<PromptResult | FeatureError>;
  completePrompt(
    name: string,
    argument: string,
    value: string,
    context?: Record<string, string>,
  ): Promise<Completion | FeatureError>;
  readonly onDidChangePrompts: Event<void>;
}

/** A server's prompt, expanded: what the model is sent and what the transcript shows. */
export interface PromptInput {
  prompt: string;
  server: string;
  messages: ChatMessage[];
  shown: PromptMessageView[];
}

/** Most characters of one prompt message's text; the rest is cut with a note. */
export const MAX_PROMPT_MESSAGE_CHARS = 100_000;
/** Most base64 characters of one image (about 1.5 MB). */
const MAX_IMAGE_CHARS = 2_000_000;
const MAX_IMAGES = 8;
/** The `/` menu shows at most this many prompts, each description at most this long. */
const MAX_CHOICES = 1000;
const MAX_DESCRIPTION = 500;

/**
 * The chat's side of server prompts: the list the `/` menu shows, completions for the argument
 * form, and a prompt's messages turned into a turn's input. Nothing here renders: the text the
 * server wrote stays text, and the webview shows it as text.
 */
export class ChatPrompts {
  constructor(private readonly catalog: PromptCatalog) {}

  readonly onDidChange: Event<void> = (listener) => this.catalog.onDidChangePrompts(listener);

  list(): PromptChoice[] {
    return this.catalog
      .prompts()
      .slice(0, MAX_CHOICES)
      .map((p) => ({
        name: p.name,
        server: p.server,
        ...(p.title !== undefined ? { title: cut(p.title, MAX_DESCRIPTION) } : {}),
        ...(p.description !== undefined ? { description: cut(p.description, MAX_DESCRIPTION) } : {}),
        arguments: p.arguments.map((a) => ({
          name: a.name,
          required: a.required,
          ...(a.description !== undefined ? { description: cut(a.description, MAX_DESCRIPTION) } : {}),
        })),
      }));
  }

  /** The server's completions, or the reason there are none (never throws). */
  async complete(
    prompt: string,
    argument: string,
    value: string,
    context: Record<string, string>,
  ): Promise<{ values: string[]; error?: string }> {
    const result = await this.catalog.completePrompt(
      prompt,
      argument,
      value,
      Object.keys(context).length ? context : undefined,
    );
    return isFeatureError(result) ? { values: [], error: result.error } : { values: result.values };
  }

  /** Gets the prompt; throws an Error with the server's or the catalog's words when it cannot. */
  async expand(prompt: string, args: Record<string, string>): Promise<PromptInput> {
    const result = await this.catalog.getPrompt(prompt, args);
    if (isFeatureError(result)) throw new Error(result.error);
    if (!result.messages.length)
      throw new Error(`prompt "${prompt}" of server "${result.server}" returned no messages`);
    return promptInput(prompt, result);
  }
}

/**
 * A prompt's messages as chat messages: text as it is (cut past MAX_PROMPT_MESSAGE_CHARS), raster
 * images (also embedded image resources) beside the text, everything else described in words
 * (an embedded text resource with its text, a link, audio).
 */
export function promptInput(prompt: string, result: PromptResult): PromptInput {
  const messages: ChatMessage[] = [];
  const shown: PromptMessageView[] = [];
  let imageCount = 0;
  for (const m of result.messages) {
    const image = imageOf(m.content);
    const takeImage = image !== undefined && m.role === 'user' && imageCount < MAX_IMAGES;
    if (takeImage) imageCount++;
    const refused = m.content.type === 'image' && !takeImage;
    const text = cut(
      refused ? `[${String(m.content.mimeType ?? 'unknown')} image: not sent]` : describeContent(m.content),
      MAX_PROMPT_MESSAGE_CHARS,
    );
    const images: ToolImage[] = takeImage ? [image] : [];
    messages.push(
      m.role === 'user'
        ? { role: 'user', content: text, ...(images.length ? { images } : {}) }
        : { role: 'assistant', content: text },
    );
    shown.push({ role: m.role, text, ...(images.length ? { images } : {}) });
  }
  return { prompt, server: result.server, messages, shown };
}

/** The image of an image block or of an embedded image resource, when it is one we may show and send. */
function imageOf(content: { type: string } & Record<string, unknown>): ToolImage | undefined {
  const source =
    content.type === 'image'
      ? content
      : content.type === 'resource' && typeof content.resource === 'object' && content.resource !== null
        ? (content.resource as Record<string, unknown>)
        : undefined;
  if (!source) return undefined;
  const data = content.type === 'image' ? source.data : source.blob;
  const mimeType = source.mimeType;
  if (
    typeof data !== 'string' ||
    typeof mimeType !== 'string' ||
    !SHOWN_IMAGE.test(mimeType) ||
    data.length > MAX_IMAGE_CHARS ||
    !/^[A-Za-z0-9+/]*={0,2}$/.test(data)
  )
    return undefined;
  return { mimeType, data };
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n…[cut: ${text.length - max} more characters]` : text;
}
