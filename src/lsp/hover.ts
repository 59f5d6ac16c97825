import { relative } from 'node:path';
import type { Hover, HoverParams } from 'vscode-languageserver';
import { resolveDatasetPath } from '../dataset/index.js';
import { priceOf } from '../model/prices.js';
import { guessProvider } from '../model/guess-provider.js';
import { datasetSummary } from './dataset-summary.js';
import { evalCatalog } from './eval-catalog.js';
import { fileKind } from './file-kind.js';
import { uriToPath } from './open-documents.js';
import { frontmatterOf, propsOf } from './prompt-facts.js';
import { promptTarget } from './prompt-target.js';
import type { ServerContext } from './server-context.js';

const json = (value: unknown) => `\`${JSON.stringify(value)}\``;

export async function hover(context: ServerContext, params: HoverParams): Promise<Hover | null> {
  await context.ready();
  const path = uriToPath(params.textDocument.uri);
  const text = context.documents.text(path);
  if (text === undefined || fileKind(path) !== 'prompt') return null;
  const target = promptTarget(text, params.position);
  if (!target) return null;
  const { project, config } = context.state;
  const reply = (value: string): Hover => ({ contents: { kind: 'markdown', value }, range: target.range });
  switch (target.kind) {
    case 'eval': {
      const entry = evalCatalog(project, config).find((e) => e.name === target.name);
      return entry ? reply(entry.documentation) : null;
    }
    case 'dataset': {
      if (!project) return null;
      let file: string;
      try {
        file = resolveDatasetPath(target.value, path, project);
      } catch {
        return null;
      }
      const summary = await datasetSummary(file);
      const lines = [`**${relative(project.root, file)}**: ${summary.rows} row${summary.rows === 1 ? '' : 's'}`, '', `${summary.labelled} with expected_output or labels`];
      const first = summary.first[0];
      if (first) lines.push('', `first row: ${json(first.input)}${first.hasExpectedOutput ? ` → ${json(first.expectedOutput)}` : ''}`);
      return reply(lines.join('\n'));
    }
    case 'prop': {
      const prop = (await propsOf(context.state, path, await frontmatterOf(path, text))).find((p) => p.name === target.name);
      if (!prop) return reply(`**props.${target.name}**: not declared in input_schema`);
      const lines = [`**props.${prop.name}**${prop.schema === undefined ? '' : `: ${json(prop.schema)}`}`];
      if (prop.examples.length > 0) lines.push('', `first rows: ${prop.examples.map(json).join(', ')}`);
      return reply(lines.join('\n'));
    }
    case 'model': {
      const slash = target.id.indexOf('/');
      const provider = slash === -1 ? guessProvider(target.id) : target.id.slice(0, slash);
      const price = priceOf(target.id, config?.prices ?? {});
      const registered = provider !== undefined && config?.providers?.[provider] !== undefined;
      return reply(
        [
          `**${target.id}**`,
          '',
          `provider: ${provider ?? 'unknown'}${registered ? ' (registered in the config)' : ''}`,
          '',
          price ? `price: $${price.input} in / $${price.output} out per million tokens` : 'price: unknown (add it under `prices` in agentmark.config.ts)',
        ].join('\n'),
      );
    }
    default:
      return null;
  }
}
