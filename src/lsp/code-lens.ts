import { relative, sep } from 'node:path';
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { listRuns } from '../history/index.js';
import { RunStore, type RunManifest } from '../store/index.js';
import { fileKind } from './file-kind.js';
import { uriToPath } from './open-documents.js';
import { frontmatterOf } from './prompt-facts.js';
import type { ServerContext } from './server-context.js';

/** The commands the lenses run; an editor's client implements them (editors/vscode does). */
export const LENS_COMMANDS = {
  runExperiment: 'agentmark.runExperiment',
  renderRow: 'agentmark.renderRow',
  openLastRun: 'agentmark.openLastRun',
} as const;

/** The newest run of a prompt in the project's run store, or undefined when it has none. */
export async function lastRunOf(root: string, promptPath: string): Promise<RunManifest | undefined> {
  const prompt = relative(root, promptPath).split(sep).join('/');
  try {
    return (await listRuns(new RunStore(root), { prompt, limit: 1 }))[0];
  } catch {
    return undefined;
  }
}

function passRates(run: RunManifest): string {
  const evals = run.summary?.evals ?? [];
  const parts = evals.filter((e) => e.passRate !== undefined).map((e) => `${e.name} ${Math.round((e.passRate ?? 0) * 100)}%`);
  return parts.length === 0 ? `last run ${run.id}: no pass rates` : `last run: ${parts.join(' · ')}`;
}

/** Above `test_settings` (or the first line): Run experiment, Render row 0, Open last run; above `evals:` the last run's pass rates. */
export async function codeLenses(context: ServerContext, params: CodeLensParams): Promise<CodeLens[]> {
  await context.ready();
  const path = uriToPath(params.textDocument.uri);
  const text = context.documents.text(path);
  const project = context.state.project;
  if (text === undefined || !project || fileKind(path) !== 'prompt') return [];
  const parsed = await frontmatterOf(path, text);
  const settingsLine = (parsed?.positionOf(['test_settings'])?.line ?? 1) - 1;
  const evalsLine = parsed?.positionOf(['test_settings', 'evals'])?.line;
  const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 0 } });
  const uri = params.textDocument.uri;
  const lenses: CodeLens[] = [
    { range: at(settingsLine), command: { title: 'Run experiment', command: LENS_COMMANDS.runExperiment, arguments: [uri] } },
    { range: at(settingsLine), command: { title: 'Render row 0', command: LENS_COMMANDS.renderRow, arguments: [uri, 0] } },
  ];
  const run = await lastRunOf(project.root, path);
  if (run) {
    lenses.push({ range: at(settingsLine), command: { title: 'Open last run', command: LENS_COMMANDS.openLastRun, arguments: [uri, run.id] } });
    if (evalsLine !== undefined) lenses.push({ range: at(evalsLine - 1), command: { title: passRates(run), command: LENS_COMMANDS.openLastRun, arguments: [uri, run.id] } });
  }
  return lenses;
}
