/**
 * `$0.0123`; `n/a` when no price was known. Four decimals because per-run costs of small
 * models are often fractions of a cent; a positive cost below that shows as `<$0.0001`
 * rather than a misleading `$0.0000`.
 */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined || !Number.isFinite(usd)) return 'n/a';
  if (usd > 0 && usd < 0.00005) return '<$0.0001';
  return `$${usd.toFixed(4)}`;
}
