import { sourceText, type ImportIssue, type ImportResult } from './types.js';

/** The commands that check and run what was imported, from inside the output folder. */
export function nextCommands(result: ImportResult): string[] {
  const commands = ['npx agentmark validate'];
  for (const prompt of result.prompts) commands.push(`npx agentmark run-experiment ${prompt}`);
  return commands;
}

/** Exit code of an import: 0 all came over, 1 something was left out, 2 nothing was readable. */
export function importExitCode(result: ImportResult): 0 | 1 | 2 {
  if (!result.readable) return 2;
  return result.leftOut.length > 0 ? 1 : 0;
}

function issueLines(issue: ImportIssue): string[] {
  const lines = [`- \`${sourceText(issue.from)}\` ${issue.what}: ${issue.why}`];
  if (issue.verbatim !== undefined) {
    const fence = issue.verbatim.includes('```') ? '````' : '```';
    lines.push('', `  ${fence}`, ...issue.verbatim.trimEnd().split('\n').map((line) => `  ${line}`.trimEnd()), `  ${fence}`, '');
  }
  return lines;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** IMPORT.md: what came over, what did not and why (with the source kept verbatim), what to run next. */
export function importMarkdown(result: ImportResult, sources: readonly string[]): string {
  const lines = [`# Imported from ${result.tool}`, '', `Source: ${sources.map((s) => `\`${s}\``).join(', ')}.`, ''];
  lines.push(`## Imported (${result.imported.length})`, '');
  if (result.imported.length > 0) {
    lines.push('| from | what | became |', '|---|---|---|');
    for (const item of result.imported) lines.push(`| \`${sourceText(item.from)}\` | ${cell(item.what)} | ${cell(item.to)} |`);
    lines.push('');
  }
  lines.push(`## Not imported (${result.leftOut.length})`, '');
  if (result.leftOut.length === 0) lines.push('Everything came over.', '');
  for (const issue of result.leftOut) lines.push(...issueLines(issue));
  if (result.leftOut.length > 0) lines.push('');
  if (result.notes.length > 0) {
    lines.push(`## Imported with a difference (${result.notes.length})`, '');
    for (const issue of result.notes) lines.push(...issueLines(issue));
    lines.push('');
  }
  lines.push('## Next', '', 'From this folder:', '', '```sh', ...nextCommands(result), '```', '');
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** What the command prints: the files written, every item left out with its place, the next commands. */
export function importSummary(result: ImportResult, written: readonly string[], shownDir: string): string {
  const lines = [
    `Imported ${result.imported.length} item${result.imported.length === 1 ? '' : 's'} from ${result.tool} into ${shownDir === '' ? 'the current folder' : shownDir}:`,
    ...written.map((file) => `  ${file}`),
  ];
  if (result.leftOut.length > 0) {
    lines.push('', `Not imported (${result.leftOut.length}):`);
    for (const issue of result.leftOut) lines.push(`  ${sourceText(issue.from)}: ${issue.what}: ${issue.why}`);
  }
  if (result.notes.length > 0) {
    lines.push('', `Imported with a difference (${result.notes.length}):`);
    for (const issue of result.notes) lines.push(`  ${sourceText(issue.from)}: ${issue.what}: ${issue.why}`);
  }
  lines.push('', 'Details in IMPORT.md. Next:');
  if (shownDir !== '') lines.push(`  cd ${shownDir.includes(' ') ? JSON.stringify(shownDir) : shownDir}`);
  for (const command of nextCommands(result)) lines.push(`  ${command}`);
  return `${lines.join('\n')}\n`;
}
