/**
 * The README's benchmark table, made from a full run's record:
 * `node .bench-dist/readme-table.js [results.json] [--with partial.json]... [--write]` prints the
 * table (every figure that has a target, or a scenario's first figure when none has, with its
 * median, range, ideal, ratio, target and whether it passed) and, with --write, puts it between
 * README.md's `<!-- bench:start -->` and `<!-- bench:end -->` markers. Written by hand from
 * figures, the table drifted from them. `--with` takes the scenarios a partial run
 * (`--only`, bench/results/latest-partial.json) measured in place of the full run's, each
 * marked with the partial run's date, so a scenario measured again later shows its figures
 * without a new full run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { formatValue as value, type BenchResults } from './report.js';

/** The full run with `partial`'s scenarios in place of its own (and after them, any it lacks), marked with their run's date. */
export function withPartial(full: BenchResults, partial: BenchResults): BenchResults {
  const when = `${partial.date.slice(0, 16).replace('T', ' ')} UTC`;
  const marked = new Map(partial.scenarios.map((scenario) => [scenario.id, { ...scenario, title: `${scenario.title} †` }]));
  const scenarios = full.scenarios.map((scenario) => marked.get(scenario.id) ?? scenario);
  for (const [id, scenario] of marked) if (!full.scenarios.some((each) => each.id === id)) scenarios.push(scenario);
  // The partial run's machine load: a figure taken on a busy machine reads differently.
  const loads = partial.scenarios.flatMap((scenario) => [scenario.details.loadAverage1mBefore, scenario.details.loadAverage1mAfter]).filter((load): load is number => typeof load === 'number');
  const load = loads.length === 0 ? '' : `, 1-minute load average ${Math.min(...loads).toFixed(0)}–${Math.max(...loads).toFixed(0)} on ${partial.machine.cores} cores`;
  return { ...full, scenarios, partial: { date: `${when}${load}`, ids: [...marked.keys()] } } as BenchResults;
}

export function readmeTable(results: BenchResults): string {
  const partial = (results as BenchResults & { partial?: { date: string; ids: string[] } }).partial;
  const lines = [
    `Full run that finished ${results.date.slice(0, 16).replace('T', ' ')} UTC: ${results.machine.cores} cores, Node ${results.machine.node}; medians of each scenario's runs.`,
    ...(partial === undefined ? [] : [`† measured again later with \`--only\` (${partial.ids.join(', ')}; finished ${partial.date}), in place of the full run's figures.`]),
    '',
    '| scenario | figure | median (range) | ideal | ratio | target | |',
    '|---|---|---|---|---|---|---|',
  ];
  const missed: string[] = [];
  for (const scenario of results.scenarios) {
    const targeted = scenario.metrics.some((m) => m.target !== undefined);
    const shown = scenario.metrics.filter((m, index) => m.target !== undefined || (!targeted && index === 0));
    if (scenario.status !== 'ok') {
      lines.push(`| ${scenario.title} | — | — | — | — | — | ${scenario.status}: ${scenario.notes.join('; ').replaceAll('|', '/')} |`);
      missed.push(scenario.title);
      continue;
    }
    shown.forEach((m, index) => {
      const range = m.samples.length > 1 ? ` (${value(m.min, m.unit)}–${value(m.max, m.unit)})` : '';
      const verdict = m.pass === undefined ? '' : m.pass ? 'pass' : '**missed**';
      if (m.pass === false) missed.push(`${scenario.title}: ${m.name}`);
      lines.push(
        [
          index === 0 ? scenario.title : '',
          m.name,
          `${value(m.median, m.unit)}${range}`,
          m.ideal === undefined ? '—' : `${value(m.ideal, m.unit)}${m.idealText ? ` (${m.idealText})` : ''}`,
          m.ratio === undefined ? '—' : `${m.ratio.toFixed(2)}×`,
          m.target?.text ?? '—',
          verdict,
        ]
          .join(' | ')
          .replace(/^/, '| ')
          .concat(' |'),
      );
    });
  }
  lines.push('', missed.length === 0 ? 'Every target was met.' : `Missed: ${missed.join('; ')}.`);
  return `${lines.join('\n')}\n`;
}

const args = process.argv.slice(2);
// `--with <file>`, once per partial run; its scenarios replace the full run's.
const withAt = args.flatMap((arg, i) => (arg === '--with' ? [i] : []));
const partialPaths = withAt.map((i) => args[i + 1]);
if (partialPaths.some((file) => file === undefined || file.startsWith('--'))) {
  process.stderr.write('readme-table: --with takes a partial run\'s results file, e.g. bench/results/latest-partial.json\n');
  process.exit(2);
}
const path = args.find((arg, i) => !arg.startsWith('--') && !withAt.includes(i - 1)) ?? 'bench/results/latest.json';
const partials = (partialPaths as string[]).map((file) => JSON.parse(readFileSync(file, 'utf8')) as BenchResults);
const merged = partials.length === 0 ? undefined : partials.reduce((all, next) => ({ ...next, scenarios: [...all.scenarios.filter((s) => !next.scenarios.some((n) => n.id === s.id)), ...next.scenarios] }));
const full = JSON.parse(readFileSync(path, 'utf8')) as BenchResults;
const table = readmeTable(merged === undefined ? full : withPartial(full, merged));
if (args.includes('--write')) {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('<!-- bench:start -->');
  const end = readme.indexOf('<!-- bench:end -->');
  if (start === -1 || end < start) {
    process.stderr.write('readme-table: README.md has no <!-- bench:start --> … <!-- bench:end --> markers\n');
    process.exit(2);
  }
  writeFileSync('README.md', `${readme.slice(0, start)}<!-- bench:start -->\n${table}${readme.slice(end)}`);
} else {
  process.stdout.write(table);
}
