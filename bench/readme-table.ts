/**
 * The README's benchmark table, made from a full run's record:
 * `node .bench-dist/readme-table.js [results.json] [--write]` prints the table (every figure
 * that has a target, or a scenario's first figure when none has, with its median, range, ideal, ratio, target and whether it
 * passed) and, with --write, puts it between README.md's `<!-- bench:start -->` and
 * `<!-- bench:end -->` markers. Written by hand from figures, the table drifted from them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { formatValue as value, type BenchResults } from './report.js';

export function readmeTable(results: BenchResults): string {
  const lines = [
    `Full run that finished ${results.date.slice(0, 16).replace('T', ' ')} UTC: ${results.machine.cores} cores, Node ${results.machine.node}; medians of each scenario's runs.`,
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
const path = args.find((arg) => !arg.startsWith('--')) ?? 'bench/results/latest.json';
const table = readmeTable(JSON.parse(readFileSync(path, 'utf8')) as BenchResults);
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
