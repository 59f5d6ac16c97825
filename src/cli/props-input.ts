import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { UsageError } from '../errors/index.js';
import { readDataset, resolveDatasetPath } from '../dataset/index.js';
import { compileInputSchema } from '../prompt/index.js';
import { outsideScope, projectScope } from '../project/path-scope.js';
import type { Project } from '../project/types.js';
import type { LoadedPrompt } from '../prompt/types.js';

export interface PropsFlags {
  props?: string;
  'props-file'?: string;
  row?: number;
}

/** The props to render with: --props JSON, --props-file (JSON or YAML), --row n, else test_settings.props. */
export async function propsFromFlags(
  flags: PropsFlags,
  prompt: LoadedPrompt,
  project: Project,
  cwd: string,
): Promise<Record<string, unknown>> {
  const given = (['props', 'props-file', 'row'] as const).filter((name) => flags[name] !== undefined);
  if (given.length > 1) {
    throw new UsageError('USAGE_CONFLICT', `--${given.join(' and --')} cannot be used together`);
  }
  if (flags.props !== undefined) return checked(asProps(parseJson(flags.props, '--props'), '--props'), '--props', prompt);
  if (flags['props-file'] !== undefined) {
    const path = resolve(cwd, flags['props-file']);
    const outside = outsideScope(projectScope(project), path, flags['props-file']);
    if (outside) throw new UsageError('USAGE_PATH_OUTSIDE_PROJECT', `--props-file ${outside.message}`, { hint: outside.hint });
    const text = await readFile(path, 'utf8').catch(() => {
      throw new UsageError('USAGE_NO_SUCH_FILE', `--props-file ${flags['props-file']}: no such file`);
    });
    if (extname(path) === '.yaml' || extname(path) === '.yml') {
      const YAML = await import('yaml');
      let parsed: unknown;
      try {
        parsed = YAML.parse(text);
      } catch (error) {
        throw new UsageError('USAGE_BAD_PROPS', `${flags['props-file']}: ${error instanceof Error ? error.message : String(error)}`);
      }
      return checked(asProps(parsed, flags['props-file']), flags['props-file'], prompt);
    }
    return checked(asProps(parseJson(text, flags['props-file']), flags['props-file']), flags['props-file'], prompt);
  }
  if (flags.row !== undefined) return propsFromRow(flags.row, prompt, project);
  return prompt.testSettings.props ?? {};
}

async function propsFromRow(index: number, prompt: LoadedPrompt, project: Project): Promise<Record<string, unknown>> {
  const dataset = prompt.testSettings.dataset;
  if (!dataset) {
    throw new UsageError('USAGE_NO_DATASET', '--row needs a dataset, but this prompt has no test_settings.dataset');
  }
  const path = resolveDatasetPath(dataset, prompt.path, project, prompt.locate(['test_settings', 'dataset']));
  for await (const row of readDataset(path, { inputSchema: prompt.inputSchema })) {
    if (row.index === index) return row.input;
  }
  throw new UsageError('USAGE_BAD_VALUE', `--row ${index}: the dataset ${dataset} has fewer rows`, {
    hint: 'rows are counted from 0',
  });
}

/** Props given on the command line meet the same `input_schema` as a dataset row's input. */
async function checked(props: Record<string, unknown>, what: string, prompt: LoadedPrompt): Promise<Record<string, unknown>> {
  if (prompt.inputSchema === undefined) return props;
  const violations = (await compileInputSchema(prompt.inputSchema))(props);
  if (violations.length === 0) return props;
  // The validator names the row's `input`; here the same object is the props.
  const problems = violations.map((violation) => violation.replace(/^input/, 'props'));
  throw new UsageError('USAGE_BAD_PROPS', `${what} does not match the prompt's input_schema: ${problems.join('; ')}`);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError('USAGE_BAD_PROPS', `${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function asProps(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError('USAGE_BAD_PROPS', `${what} must be an object of props, e.g. {"name": "Ada"}`);
  }
  return value as Record<string, unknown>;
}
