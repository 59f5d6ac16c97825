/**
 * A conversation's turns as every surface counts them: its user turns, given or simulated (one
 * turn is the user speaking and the assistant answering). `max_turns` and the `turns` eval count
 * the same, so `[3t stop]` in a table, `turns` in a grid and "3 turns" in the viewer agree with
 * them; the transcript's `turns` array holds the messages of both sides.
 */
export function userTurns(turns: ReadonlyArray<{ role: string }>): number {
  let users = 0;
  for (const turn of turns) if (turn.role === 'user') users += 1;
  return users;
}
