/** A changed row's repeats on one side: `2/3 passed` (errored repeats count as not passed). */
export function repeatsText(repeats: { passed: number; of: number }): string {
  return `${repeats.passed}/${repeats.of} passed`;
}
