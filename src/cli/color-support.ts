/**
 * Whether to colour what goes to a stream. As Node decides for its own output: `FORCE_COLOR`
 * wins (`0` or `false` turn colour off, any other value on), then `NO_COLOR` (any non-empty
 * value: off, https://no-color.org), then a terminal that is not `TERM=dumb`. A pipe or a
 * file never gets colour unless forced, so `| grep`, `-o` and CI logs stay plain text.
 */
export function colorSupported(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return isTTY === true && env['TERM'] !== 'dumb';
}
