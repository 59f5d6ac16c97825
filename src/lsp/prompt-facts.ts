import { parseFrontmatter, type ParsedFrontmatter } from '../prompt/frontmatter.js';
import type { ProjectState } from './project-state.js';
import { resolveDatasetPath } from '../dataset/index.js';
import { datasetSummary } from './dataset-summary.js';

/** The frontmatter of a buffer as the loader reads it, or nothing while it does not parse. */
export async function frontmatterOf(path: string, text: string): Promise<ParsedFrontmatter | undefined> {
  try {
    return await parseFrontmatter(path, text);
  } catch {
    return undefined;
  }
}

export interface PropFact {
  name: string;
  schema?: unknown;
  /** Values of the first dataset rows. */
  examples: unknown[];
}

/** The props a prompt can read: its input_schema's properties, else the keys of its dataset's first rows. */
export async function propsOf(state: ProjectState, path: string, parsed: ParsedFrontmatter | undefined): Promise<PropFact[]> {
  const datasetPath = state.prompts.get(path)?.dataset?.path ?? datasetNamed(state, path, parsed);
  const rows = datasetPath === undefined ? [] : (await datasetSummary(datasetPath)).first;
  const schema = parsed?.data['input_schema'] as { properties?: Record<string, unknown> } | undefined;
  const names = schema?.properties ? Object.keys(schema.properties) : [...new Set(rows.flatMap((row) => Object.keys(row.input)))];
  return names.map((name) => ({
    name,
    ...(schema?.properties?.[name] === undefined ? {} : { schema: schema.properties[name] }),
    examples: rows.map((row) => row.input[name]).filter((value) => value !== undefined),
  }));
}

/** The dataset the frontmatter names, resolved as the loader resolves it (for a prompt that does not load as typed). */
function datasetNamed(state: ProjectState, path: string, parsed: ParsedFrontmatter | undefined): string | undefined {
  const settings = parsed?.data['test_settings'] as { dataset?: unknown } | undefined;
  if (!state.project || typeof settings?.dataset !== 'string') return undefined;
  try {
    return resolveDatasetPath(settings.dataset, path, state.project);
  } catch {
    return undefined;
  }
}
