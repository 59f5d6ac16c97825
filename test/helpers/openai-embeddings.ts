/**
 * The loopback server's `/v1/embeddings`: a deterministic embedding of each input, so a test can
 * work out the cosine `similar` must report by hand. Dimension i (0..25) is the count of the
 * letter `a` + i in the lower-cased text; letters outside a–z are not counted. Usage: one prompt
 * token per whitespace-separated word.
 */
export function letterCounts(text: string): number[] {
  const counts = Array.from({ length: 26 }, () => 0);
  for (const ch of text.toLowerCase()) {
    const i = ch.charCodeAt(0) - 97;
    if (i >= 0 && i < 26) counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts;
}

export function embeddingsResult(body: Record<string, unknown>): Record<string, unknown> {
  const input = body['input'];
  const texts = Array.isArray(input) ? input.map(String) : [String(input ?? '')];
  const tokens = texts.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0);
  return {
    object: 'list',
    data: texts.map((text, index) => ({ object: 'embedding', index, embedding: letterCounts(text) })),
    model: body['model'],
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
