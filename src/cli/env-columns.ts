/**
 * The width of stdout when it is not a terminal and `COLUMNS` says nothing: a report piped to
 * `less` or a CI log is read on a screen too, and a table of whole cells can run to hundreds of
 * columns. Long cells are cut to fit, as on a terminal.
 */
export const PIPED_COLUMNS = 100;

/**
 * `COLUMNS` as a width, when it is set to a positive whole number. It says how wide a report
 * may be where stdout is not a terminal (`COLUMNS=80 agentmark … | less`); on a terminal its
 * real width wins.
 */
export function envColumns(env: NodeJS.ProcessEnv): number | undefined {
  const text = env['COLUMNS']?.trim();
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const columns = Number(text);
  return columns > 0 ? columns : undefined;
}
