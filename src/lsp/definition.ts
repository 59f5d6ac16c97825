import { dirname, resolve } from 'node:path';
import type { DefinitionParams, Location } from 'vscode-languageserver';
import { resolveDatasetPath } from '../dataset/index.js';
import { fileKind } from './file-kind.js';
import { jsonCursor, offsetAt } from './json-context.js';
import { pathToUri, uriToPath } from './open-documents.js';
import { promptTarget } from './prompt-target.js';
import type { ServerContext } from './server-context.js';
import { registrationRanges } from './config-registrations.js';
import { scoreKeyRange, textOf } from './source-positions.js';

const START = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** Go to definition: a dataset, an imported component, an eval's score schema and config scorer, a judge prompt. */
export async function definition(context: ServerContext, params: DefinitionParams): Promise<Location[] | null> {
  await context.ready();
  const path = uriToPath(params.textDocument.uri);
  const text = context.documents.text(path);
  const { project, config } = context.state;
  if (text === undefined || !project) return null;
  if (fileKind(path) === 'project') {
    // scores.<name>.options.prompt: the judge's own prompt file.
    const cursor = jsonCursor(text, offsetAt(text, params.position));
    if (cursor.path[0] !== 'scores' || cursor.path[2] !== 'options' || cursor.path[3] !== 'prompt') return null;
    const judge = project.scores[cursor.path[1] ?? '']?.options?.['prompt'];
    return typeof judge === 'string' ? [{ uri: pathToUri(resolve(project.root, judge)), range: START }] : null;
  }
  if (fileKind(path) !== 'prompt') return null;
  const target = promptTarget(text, params.position);
  switch (target?.kind) {
    case 'dataset':
      try {
        return [{ uri: pathToUri(resolveDatasetPath(target.value, path, project)), range: START }];
      } catch {
        return null;
      }
    case 'import':
      return [{ uri: pathToUri(resolve(dirname(path), target.request)), range: START }];
    case 'eval': {
      const found: Location[] = [];
      const projectText = await textOf(context.documents, project.configPath);
      const key = projectText === undefined ? undefined : scoreKeyRange(projectText, target.name);
      if (key) found.push({ uri: pathToUri(project.configPath), range: key });
      const judge = project.scores[target.name]?.options?.['prompt'];
      if (typeof judge === 'string') found.push({ uri: pathToUri(resolve(project.root, judge)), range: START });
      if (config?.path && config.scorers?.[target.name] !== undefined) {
        const configText = await textOf(context.documents, config.path);
        const ranges = configText === undefined ? [] : registrationRanges(configText, target.name);
        found.push({ uri: pathToUri(config.path), range: ranges[0] ?? START });
      }
      return found.length > 0 ? found : null;
    }
    default:
      return null;
  }
}
