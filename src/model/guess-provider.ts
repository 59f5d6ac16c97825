/**
 * Model id prefixes that name their maker unambiguously, so `gpt-4o` without a provider can be
 * answered with `did you mean "openai/gpt-4o"?`. Only families whose name is the maker's own.
 */
const FAMILIES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(gpt-|chatgpt-|o\d(-|$)|text-embedding-|dall-e-|tts-|whisper-)/, 'openai'],
  [/^claude-/, 'anthropic'],
  [/^(gemini-|gemma-)/, 'google'],
  [/^(mistral-|mixtral-|codestral-|magistral-|ministral-|pixtral-|open-mistral-)/, 'mistral'],
  [/^grok-/, 'xai'],
];

/** The provider a bare model id most likely belongs to, or undefined when its name does not say. */
export function guessProvider(modelId: string): string | undefined {
  const lower = modelId.toLowerCase();
  return FAMILIES.find(([pattern]) => pattern.test(lower))?.[1];
}
