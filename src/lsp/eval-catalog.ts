import { builtinScorers } from '../scoring/index.js';
import type { LoadedConfig, Project, ScoreSchema } from '../project/index.js';

/** A name `test_settings.evals` can hold, and where it comes from. */
export interface EvalEntry {
  name: string;
  source: 'score' | 'config' | 'builtin';
  /** Markdown: what it measures, its type and scorer. */
  documentation: string;
  schema?: ScoreSchema;
}

/** A score schema as a hover or completion shows it. */
export function describeScore(name: string, schema: ScoreSchema): string {
  const lines = [`**${name}**: ${schema.type} score (agentmark.json)`];
  if (schema.description) lines.push('', schema.description);
  if (schema.type === 'numeric' && (schema.min !== undefined || schema.max !== undefined)) lines.push('', `range: ${schema.min ?? '−∞'} to ${schema.max ?? '∞'}`);
  if (schema.categories) lines.push('', `categories: ${schema.categories.map((c) => `${c.label} = ${c.value}`).join(', ')}`);
  if (schema.scorer) lines.push('', `scorer: \`${schema.scorer}\`${schema.options ? ` with options \`${JSON.stringify(schema.options)}\`` : ''}`);
  if (schema.gate === false) lines.push('', 'reported only: does not gate the run');
  return lines.join('\n');
}

/**
 * Every eval name a prompt may bind, in bindEvals' order of precedence: the project's score
 * schemas, the config's scorers, the built-ins (so a new built-in or key is offered at once).
 */
export function evalCatalog(project: Project | undefined, config: LoadedConfig | undefined): EvalEntry[] {
  const entries = new Map<string, EvalEntry>();
  for (const [name, schema] of Object.entries(project?.scores ?? {})) entries.set(name, { name, source: 'score', documentation: describeScore(name, schema), schema });
  for (const name of Object.keys(config?.scorers ?? {})) {
    const known = entries.get(name);
    const registered = `registered in ${config?.path?.split(/[\\/]/).pop() ?? 'agentmark.config'} (\`scorers.${name}\`)`;
    entries.set(name, known ? { ...known, documentation: `${known.documentation}\n\nscored by the scorer ${registered}` } : { name, source: 'config', documentation: `**${name}**: scorer ${registered}` });
  }
  for (const builtin of Object.values(builtinScorers)) {
    if (entries.has(builtin.name)) continue;
    entries.set(builtin.name, { name: builtin.name, source: 'builtin', documentation: `**${builtin.name}** (built-in scorer)\n\n${builtin.description}${optionsDoc(builtin.options)}` });
  }
  return [...entries.values()];
}

/** A built-in's options, one line each, from its JSON Schema. */
export function optionsDoc(options: { properties?: Record<string, unknown> } | undefined): string {
  const properties = Object.entries(options?.properties ?? {});
  if (properties.length === 0) return '';
  const lines = properties.map(([key, value]) => {
    const spec = value as { type?: unknown; description?: unknown };
    return `- \`${key}\`${typeof spec.type === 'string' ? ` (${spec.type})` : ''}${typeof spec.description === 'string' ? `: ${spec.description}` : ''}`;
  });
  return `\n\noptions (scores.<name>.options in agentmark.json):\n${lines.join('\n')}`;
}
