import { DEFAULT_BASE_URLS } from './factory';
import { baseUrlProblem, entryId, type ModelEntry } from './modelList';

/** Where an OpenAI-compatible set-up starts for a user who has given none: Ollama's local endpoint. */
export const FIRST_OPENAI_BASE_URL = 'http://localhost:11434/v1';

export interface SetupHistory {
  /** The user's own models (`minagent.chat.models` of the user settings): never a workspace's. */
  entries: readonly ModelEntry[];
  /** The selected model's id (a workspace's entry has an id none of `entries` has). */
  selectedId?: string;
  /** The Base URL typed in the user's last run of the set-up for this provider, finished or not. */
  typedBefore?: string;
}

/**
 * The Base URL Set Up a Model offers: what the user typed last time (a run they left when the endpoint
 * did not answer included), else their selected model's, else the one they added last, else the usual
 * start. A second run never puts Ollama's default over what the user gave, and never offers a
 * workspace's URL (its origin would get the key the user types next).
 */
export function setupBaseUrl(provider: 'openai' | 'anthropic', history: SetupHistory): string {
  const typed = history.typedBefore?.trim();
  if (typed && !baseUrlProblem(typed)) return typed;
  const own = history.entries.filter((e): e is Extract<ModelEntry, { baseUrl: string }> => e.provider === provider);
  const selected = own.find((e) => entryId(e) === history.selectedId);
  return (
    (selected ?? own.at(-1))?.baseUrl ?? (provider === 'openai' ? FIRST_OPENAI_BASE_URL : DEFAULT_BASE_URLS.anthropic)
  );
}
