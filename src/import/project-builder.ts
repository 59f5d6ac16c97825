import { canonicalJson } from '../canonical-json.js';

/** A score schema as agentmark.json holds it, with this project's `scorer` and `options`. */
export interface ScoreSpec {
  type: 'boolean' | 'numeric' | 'categorical';
  description?: string;
  scorer?: string;
  options?: Record<string, unknown>;
  min?: number;
  max?: number;
  categories?: Array<{ label: string; value: number }>;
}

export interface PromptSpec {
  /** Path from the project root, e.g. `prompts/summarize.prompt.mdx`. */
  file: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

/** An eval on a row: a name, or a name with options and a weight (row evals). */
export type RowEval = string | { name: string; options?: Record<string, unknown>; weight?: number };

/** Turns a free-form name (a grader's, an assertion's) into an eval name: lower snake case. */
export function evalName(raw: string, fallback: string): string {
  const name = raw
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return name === '' ? fallback : /^\d/.test(name) ? `${fallback}_${name}` : name;
}

/**
 * Collects what an importer makes — score schemas, config scorers, prompts, datasets, judge
 * prompts — and renders them as the project's files.
 */
export class ProjectBuilder {
  private readonly scores = new Map<string, ScoreSpec>();
  private readonly configScorers = new Map<string, { source: string; comment: string }>();
  private readonly files = new Map<string, string>();
  private readonly prompts: PromptSpec[] = [];
  private readonly helpers = new Map<string, string>();

  /**
   * Adds a score schema under `name`, or under `name_2`, `name_3`… when the name is taken by a
   * different schema. The same schema twice shares one name. Returns the name used.
   */
  addScore(name: string, spec: ScoreSpec): string {
    for (let i = 1; ; i += 1) {
      const candidate = i === 1 ? name : `${name}_${i}`;
      const existing = this.scores.get(candidate);
      if (existing === undefined && !this.configScorers.has(candidate)) {
        this.scores.set(candidate, spec);
        return candidate;
      }
      if (existing !== undefined && canonicalJson(existing) === canonicalJson(spec)) return candidate;
    }
  }

  /** A scorer written into agentmark.config.ts; `source` is a JavaScript function expression. */
  addConfigScorer(name: string, spec: ScoreSpec, source: string, comment: string): string {
    const used = this.addScore(name, spec);
    this.configScorers.set(used, { source, comment });
    return used;
  }

  /** A function the config scorers share, written once above them (`source` declares `name`). */
  addHelper(name: string, source: string): void {
    this.helpers.set(name, source.trim());
  }

  hasScore(name: string): boolean {
    return this.scores.has(name);
  }

  addPrompt(prompt: PromptSpec): void {
    this.prompts.push(prompt);
    this.files.set(prompt.file, '');
  }

  addDataset(file: string, rows: ReadonlyArray<Record<string, unknown>>): void {
    this.files.set(file, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  }

  addFile(file: string, text: string): void {
    this.files.set(file, text);
  }

  /** Every file, agentmark.json and (when there are config scorers) agentmark.config.ts included. */
  async render(): Promise<Map<string, string>> {
    // yaml is loaded lazily, as everywhere in the CLI.
    const { stringify } = await import('yaml');
    for (const prompt of this.prompts) {
      this.files.set(prompt.file, `---\n${stringify(prompt.frontmatter, { lineWidth: 0 })}---\n\n${prompt.body.trim()}\n`);
    }
    const out = new Map<string, string>();
    const project = { version: '2.0.0', mdxVersion: '1.0', agentmarkPath: '.', scores: Object.fromEntries(this.scores) };
    out.set('agentmark.json', `${JSON.stringify(project, null, 2)}\n`);
    if (this.configScorers.size > 0) out.set('agentmark.config.ts', this.renderConfig());
    for (const [file, text] of this.files) out.set(file, text);
    return out;
  }

  private renderConfig(): string {
    const entries = [...this.configScorers].map(([name, { source, comment }]) => {
      const doc = comment.split('\n').map((line) => `    // ${line}`.trimEnd());
      return `${doc.join('\n')}\n    ${JSON.stringify(name)}: ${indent(source.trim(), '    ')},`;
    });
    return [
      '// Written by `agentmark import`: scorers that have no built-in counterpart.',
      "// (A type-only import: it is erased when the file loads, so scorers run without it installed.)",
      "import type { AgentmarkConfig } from 'agentmark-eval';",
      '',
      '/** The output as text: objects (object prompts) as JSON. */',
      'const text = (output: unknown): string => (typeof output === \'string\' ? output : JSON.stringify(output));',
      '',
      ...[...this.helpers.values()].flatMap((source) => [source, '']),
      'const config: AgentmarkConfig = {',
      '  scorers: {',
      entries.join('\n'),
      '  },',
      '};',
      '',
      'export default config;',
      '',
    ].join('\n');
  }
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : by + line))
    .join('\n');
}
