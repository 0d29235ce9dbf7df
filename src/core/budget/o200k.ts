// The o200k_base tokenizer (GPT-4o, GPT-4.1, GPT-5, o-series). Bundled on its own as dist/o200k.js
// (about 2 MB) and loaded only when an OpenAI model is first counted, so activation never pays for it.
export { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
