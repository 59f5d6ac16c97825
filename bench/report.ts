/** Figures, their summaries, the results file and the printed table. */
import { cpus, totalmem, type as osType, release } from 'node:os';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface Target {
  /**
   * The figure must be below `value`. Without one the text only says where the figure's target
   * is (e.g. another row of the scenario): no verdict.
   */
  value?: number;
  /** Where the target comes from, e.g. "issue 3". */
  source: string;
  text: string;
}

export interface Metric {
  /** e.g. "wall", "peak RSS". */
  name: string;
  unit: 'ms' | 'MB' | 'count';
  samples: number[];
  median: number;
  min: number;
  max: number;
  /** The physical lower bound, when one exists. */
  ideal?: number;
  idealText?: string;
  /** median / ideal */
  ratio?: number;
  target?: Target;
  pass?: boolean;
}

export interface ScenarioResult {
  id: string;
  title: string;
  status: 'ok' | 'failed' | 'unavailable';
  /** Why it failed or is unavailable; checks that did not hold. */
  notes: string[];
  metrics: Metric[];
  /** Anything else worth keeping: server CPU, request counts, max in flight. */
  details: Record<string, number | string | boolean>;
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  rssMethod: string;
}

export interface BenchResults {
  date: string;
  machine: MachineInfo;
  runs: number;
  scenarios: ScenarioResult[];
}

export function machineInfo(rssMethod: string): MachineInfo {
  const list = cpus();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${osType()} ${release()}`,
    rssMethod,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
}

export function metric(
  name: string,
  unit: Metric['unit'],
  samples: number[],
  extra: { ideal?: number; idealText?: string; target?: Target } = {},
): Metric {
  const m = median(samples);
  const result: Metric = {
    name,
    unit,
    samples: samples.map(round1),
    median: round1(m),
    min: round1(Math.min(...samples)),
    max: round1(Math.max(...samples)),
  };
  if (extra.ideal !== undefined) {
    result.ideal = round1(extra.ideal);
    result.ratio = Math.round((m / extra.ideal) * 100) / 100;
  }
  if (extra.idealText !== undefined) result.idealText = extra.idealText;
  if (extra.target !== undefined) {
    result.target = extra.target;
    if (extra.target.value !== undefined) result.pass = samples.length > 0 && m < extra.target.value;
  }
  return result;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

export async function writeResults(path: string, results: BenchResults): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(results, null, 2)}\n`);
  await rename(temp, path);
}

export function formatValue(value: number | undefined, unit: Metric['unit']): string {
  if (value === undefined || !Number.isFinite(value)) return '—';
  if (unit === 'MB') return `${value.toFixed(0)} MB`;
  if (unit === 'count') return String(value);
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(0)} ms`;
}

/** A plain-text table, one line per metric. */
export function renderTable(results: BenchResults): string {
  const header = ['scenario', 'metric', 'median', 'min–max', 'ideal', 'ratio', 'target', 'result'];
  const rows: string[][] = [];
  for (const scenario of results.scenarios) {
    if (scenario.metrics.length === 0) {
      rows.push([scenario.title, '—', '—', '—', '—', '—', '—', scenario.status]);
      continue;
    }
    scenario.metrics.forEach((m, index) => {
      const verdict =
        scenario.status === 'failed' && index === 0 ? 'FAILED' : m.pass === undefined ? '' : m.pass ? 'pass' : 'MISS';
      rows.push([
        index === 0 ? scenario.title : '',
        m.name,
        formatValue(m.median, m.unit),
        `${formatValue(m.min, m.unit)}–${formatValue(m.max, m.unit)}`,
        formatValue(m.ideal, m.unit),
        m.ratio === undefined ? '' : `${m.ratio.toFixed(2)}×`,
        m.target?.text ?? '',
        verdict,
      ]);
    });
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]): string => cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd();
  const out = [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
  const notes = results.scenarios.flatMap((scenario) => scenario.notes.map((note) => `  ${scenario.id}: ${note}`));
  if (notes.length > 0) out.push('', 'notes:', ...notes);
  const m = results.machine;
  out.push('', `machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, ${m.os}; peak RSS via ${m.rssMethod}`);
  return `${out.join('\n')}\n`;
}
