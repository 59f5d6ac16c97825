import { readFile } from 'node:fs/promises';
import { openProjectStorage, teamStoreRef } from '../open-store.js';
import { relative, resolve } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { RunStoreError, type StoredRun } from '../../store/index.js';
import { RUN_REF_FORMS, resolveRunRef } from '../../history/index.js';
import type { Verdict } from '../../scoring/agreement/index.js';
import { appendAnnotations, findRows, labelLine, parseRowRef, reviewerName, rowRefKey, type AnnotationLine } from '../../review/index.js';
import { openProject } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { renderHelp } from '../help.js';
import type { CliIO } from '../io.js';
import { commonOptions, parseOptions, type OptionTable } from '../options.js';

const options = {
  ...commonOptions,
  pass: { type: 'boolean', description: 'Label a boolean eval as passed' },
  fail: { type: 'boolean', description: 'Label a boolean eval as failed' },
  score: { type: 'number', value: '<x>', description: 'Label a numeric eval with this score (within the schema\'s min and max)' },
  label: { type: 'string', value: '<label>', description: 'Label a categorical eval with one of its categories' },
  clear: { type: 'boolean', description: 'Take your label back (undo); the file keeps both lines' },
  note: { type: 'string', value: '<text>', description: 'A note kept with the label' },
  repeat: { type: 'integer', value: '<n>', min: 0, default: 0, description: 'Which repeat of the row (runs made with --repeat)' },
  reviewer: { type: 'string', value: '<name>', description: 'Who is labelling (default: git config user.name)' },
  import: { type: 'string', value: '<file.jsonl>', description: 'Label in bulk: one {"row", "eval", "value", "note"?, "repeat"?, "reviewer"?} per line' },
} satisfies OptionTable;

const help = {
  usage: 'agentmark annotate <run> <row> <eval> (--pass | --fail | --score <x> | --label <l> | --clear) [--note <text>]\n' +
    '       agentmark annotate <run> --import <labels.jsonl>',
  summary:
    'Records a person\'s verdict on one eval of one row, appended to the run\'s annotations.jsonl\n' +
    '(results.jsonl is never touched). A later label from the same reviewer replaces an earlier\n' +
    'one. The value is checked against the eval\'s score schema. A row is its dataset index or\n' +
    `its name; a run is ${RUN_REF_FORMS}.`,
  options,
  details: 'With a team store that cannot be reached, a run this clone has is labelled here with one\nwarning (`runs push` takes the labels to the store later).\nExit codes: 0 labelled, 2 usage or input error (nothing is written).',
};

interface Wanted {
  ref: ReturnType<typeof parseRowRef>;
  repeat: number;
  eval: string;
  value: Verdict | undefined;
  note?: string;
  reviewer?: string;
  /** `file:line` of an imported label, for messages. */
  where?: string;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { options: flags, positionals } = parseOptions(argv, options, 'annotate');
  if (flags.help) {
    io.stdout.write(renderHelp(help));
    return ExitCode.ok;
  }
  const [ref, rowText, evalName, extra] = positionals;
  if (ref === undefined) throw new UsageError('USAGE_MISSING_RUN', 'annotate needs a run', { hint: 'e.g. `agentmark annotate latest 3 polite --pass`' });
  const project = await openProject(flags.project, io.cwd);
  const team = teamStoreRef(project, io.env);
  const { stored, storeDown } = await runToLabel(ref, project.root, io.cwd, team.storeUrl);
  const wanted = flags.import === undefined ? [single(rowText, evalName, extra, flags)] : await imported(resolve(io.cwd, flags.import), io.cwd, rowText);
  const fallback = await reviewerName(flags.reviewer, project.root);
  const rows = await findRows(stored, wanted);
  const at = new Date().toISOString();
  const lines: AnnotationLine[] = wanted.map((entry) => {
    const row = rows.get(rowRefKey(entry.ref, entry.repeat));
    const where = entry.where === undefined ? '' : `${entry.where}: `;
    if (!row) {
      const name = 'index' in entry.ref ? `row ${entry.ref.index}` : `no row named "${entry.ref.name}"`;
      throw new UsageError('USAGE_UNKNOWN_ROW', `${where}${'index' in entry.ref ? `${name} (repeat ${entry.repeat}) is not in run ${stored.manifest.id}` : `${name} in run ${stored.manifest.id}`}`, {
        hint: 'a row is its dataset index (as in the report\'s # column) or its name',
      });
    }
    const reviewer = entry.reviewer ?? fallback;
    if (reviewer === undefined) {
      throw new UsageError('USAGE_NO_REVIEWER', 'who is labelling? git config user.name is not set', { hint: 'pass --reviewer <name>' });
    }
    try {
      return labelLine({ row, eval: entry.eval, value: entry.value, reviewer, at, ...(entry.note === undefined ? {} : { note: entry.note }) }, project.scores);
    } catch (error) {
      if (error instanceof UsageError && entry.where !== undefined) error.message = `${where}${error.message}`;
      throw error;
    }
  });
  await appendAnnotations(stored.dir, lines);
  // With a team store, a run it holds gets the labels too, so other clones and `serve` see them;
  // a run only this clone has keeps them in its folder (`runs push` uploads them with it).
  let down = storeDown;
  if (team.storeUrl !== undefined && down === undefined) {
    try {
      const storage = await openProjectStorage(project, io.env);
      try {
        if ((await storage.getRun(stored.manifest.id)) !== undefined) await storage.appendAnnotations(stored.manifest.id, lines);
      } finally {
        await storage.close();
      }
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      down = error as Error;
    }
  }
  if (down !== undefined) {
    const them = lines.length === 1 ? 'the label is' : 'the labels are';
    io.stderr.write(`warning: the team store is not available (${down.message}): ${them} written in this clone only; \`agentmark runs push ${stored.manifest.id}\` takes ${lines.length === 1 ? 'it' : 'them'} to the store\n`);
  }
  io.stderr.write(`Labelled ${lines.length} eval result${lines.length === 1 ? '' : 's'} in run ${stored.manifest.id} (${relative(io.cwd, stored.dir) || '.'}/annotations.jsonl)\n`);
  return ExitCode.ok;
}

const isUnreachable = (error: unknown): boolean => (error as { code?: string }).code === 'STORE_UNREACHABLE';

/**
 * The run to label. With a team store that cannot be reached, a run this clone has is labelled here
 * (the caller warns, and `runs push` later sends the labels); a run only the store may hold cannot
 * be labelled: the store's error, naming its host and port.
 */
async function runToLabel(ref: string, projectRoot: string, cwd: string, storeUrl: string | undefined): Promise<{ stored: StoredRun; storeDown?: Error }> {
  try {
    return { stored: await resolveRunRef(ref, { projectRoot, cwd, ...(storeUrl === undefined ? {} : { storeUrl }) }) };
  } catch (error) {
    if (storeUrl === undefined || !isUnreachable(error)) throw error;
    const down = error as RunStoreError;
    try {
      return { stored: await resolveRunRef(ref, { projectRoot, cwd }), storeDown: down };
    } catch (local) {
      const code = (local as { code?: string }).code;
      // `branch:`/`commit:` this clone cannot resolve: the store's, down.
      if (code !== 'USAGE_UNKNOWN_RUN' && code !== 'USAGE_REF_NEEDS_STORE') throw local;
      throw new RunStoreError('STORE_UNREACHABLE', `run "${ref}" is not in this clone, and the team store cannot be reached to look for it: ${down.message}`, {
        ...(down.location === undefined ? {} : { location: down.location }),
        hint: 'label it once the store answers again (is PostgreSQL running there and reachable from this machine?), or `agentmark runs pull` it first when it is',
      });
    }
  }
}

function single(rowText: string | undefined, evalName: string | undefined, extra: string | undefined, flags: Record<string, unknown>): Wanted {
  if (rowText === undefined || evalName === undefined) {
    throw new UsageError('USAGE_MISSING_ARGUMENT', 'annotate needs a run, a row and an eval', { hint: 'e.g. `agentmark annotate latest 3 polite --pass`, or --import <file>' });
  }
  if (extra !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', `annotate takes one row and one eval, got also "${extra}"`);
  const given = (['pass', 'fail', 'score', 'label', 'clear'] as const).filter((name) => flags[name] !== undefined && flags[name] !== false);
  if (given.length !== 1) {
    throw new UsageError('USAGE_BAD_LABEL', given.length === 0 ? 'give the label: --pass, --fail, --score <x>, --label <l> or --clear' : `give one label, not ${given.map((name) => `--${name}`).join(' and ')}`);
  }
  const value: Verdict | undefined = flags['pass'] ? true : flags['fail'] ? false : (flags['score'] as number | undefined) ?? (flags['label'] as string | undefined);
  return {
    ref: parseRowRef(rowText),
    repeat: (flags['repeat'] as number | undefined) ?? 0,
    eval: evalName,
    value,
    ...(flags['note'] === undefined ? {} : { note: flags['note'] as string }),
  };
}

/** Every line of an import file, checked for shape; nothing is written unless all are good. */
async function imported(path: string, cwd: string, stray: string | undefined): Promise<Wanted[]> {
  if (stray !== undefined) throw new UsageError('USAGE_BAD_ARGUMENT', `--import takes the rows from the file, got also "${stray}"`);
  const file = relative(cwd, path);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError('USAGE_NO_SUCH_FILE', `${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  const wanted: Wanted[] = [];
  // A byte order mark (an editor on Windows) is not part of the first line, as in datasets.
  for (const [i, raw] of text.replace(/^\uFEFF/, '').split('\n').entries()) {
    if (raw.trim() === '') continue;
    const where = `${file}:${i + 1}`;
    const fail = (problem: string) => new UsageError('USAGE_BAD_LABEL', `${where}: ${problem}`, { hint: 'each line is {"row": 3 or "row-name", "eval": "polite", "value": true, "note"?: "...", "repeat"?: 0}' });
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw fail('not valid JSON');
    }
    const { row, eval: name, value, note, repeat, reviewer } = line;
    if (typeof row !== 'number' && typeof row !== 'string') throw fail('"row" must be a row index or a row name');
    if (typeof name !== 'string') throw fail('"eval" must be an eval name');
    if (value !== null && typeof value !== 'boolean' && typeof value !== 'number' && typeof value !== 'string') throw fail('"value" must be true, false, a number, a label, or null to clear');
    if (note !== undefined && typeof note !== 'string') throw fail('"note" must be text');
    if (repeat !== undefined && (typeof repeat !== 'number' || !Number.isInteger(repeat) || repeat < 0)) throw fail('"repeat" must be a whole number from 0');
    if (reviewer !== undefined && (typeof reviewer !== 'string' || reviewer.trim() === '')) throw fail('"reviewer" must be a name');
    wanted.push({
      ref: typeof row === 'number' ? { index: row } : parseRowRef(row),
      repeat: (repeat as number | undefined) ?? 0,
      eval: name,
      value: value === null ? undefined : (value as Verdict),
      where,
      ...(note === undefined ? {} : { note }),
      ...(reviewer === undefined ? {} : { reviewer: reviewer as string }),
    });
  }
  if (wanted.length === 0) throw new UsageError('USAGE_BAD_LABEL', `${file}: no labels in the file`);
  return wanted;
}
