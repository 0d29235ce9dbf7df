import { ScriptedModel, type ChatModel, type ScriptedTurn } from '../agent/model';
import { AnthropicModel } from './anthropic';
import { OpenAICompatibleModel } from './openai';

/** `contextWindow`: tokens per request from the user's setting (else the model's known window). */
export type ProviderSpec =
  | {
      provider: 'openai';
      baseUrl: string;
      model: string;
      apiKey?: string;
      sendImages?: boolean;
      contextWindow?: number;
      probeWindow?: boolean;
    }
  | {
      provider: 'anthropic';
      baseUrl: string;
      model: string;
      apiKey?: string;
      maxTokens?: number;
      contextWindow?: number;
    }
  | { provider: 'scripted'; script: ScriptedTurn[]; contextWindow?: number };

export const DEFAULT_BASE_URLS = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
} as const;

/** The environment variable each provider's key is read from by the CLI. */
export const KEY_ENV = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;

export function createModel(spec: ProviderSpec): ChatModel {
  const window = spec.contextWindow ? { contextWindow: spec.contextWindow } : {};
  switch (spec.provider) {
    case 'openai':
      return new OpenAICompatibleModel({
        baseUrl: spec.baseUrl,
        model: spec.model,
        ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
        ...(spec.sendImages ? { sendImages: true } : {}),
        ...(spec.probeWindow === false ? { probeWindow: false } : {}),
        ...window,
      });
    case 'anthropic':
      return new AnthropicModel({
        baseUrl: spec.baseUrl,
        model: spec.model,
        ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
        ...(spec.maxTokens ? { maxTokens: spec.maxTokens } : {}),
        ...window,
      });
    case 'scripted':
      return new ScriptedModel(spec.script, spec.contextWindow);
  }
}
