/** A provider prompt as the attempt guard sees it: messages whose content is a string or parts. */
type PromptLike = ReadonlyArray<{ content: unknown }>;

/**
 * The tokens a request will count against a token limit, before it is sent: its text at four
 * characters a token (the usual rule for English with OpenAI's and Anthropic's tokenizers) plus
 * the answer, `maxOutputTokens` when set (OpenAI charges that much up front) or else what
 * answers have used. The limiter corrects it from the usage once the answer is in.
 */
export function estimateTokens(prompt: PromptLike, maxOutputTokens: number | undefined, usualOutput: number): number {
  let chars = 0;
  for (const message of prompt) chars += textLength(message.content);
  return Math.ceil(chars / 4) + Math.ceil(maxOutputTokens ?? usualOutput);
}

function textLength(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const part of content as unknown[]) {
    if (typeof part !== 'object' || part === null) continue;
    const { text } = part as { text?: unknown };
    // A tool result or an image is counted as a short message: it is rare in a rate-limited run.
    chars += typeof text === 'string' ? text.length : 64;
  }
  return chars;
}
