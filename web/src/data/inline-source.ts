import type { ReportData, ReportRun, RowResult } from '../api.js';
import { searchableText } from '../search-text.js';
import type { DataSource } from './source.js';

/** Reads the data a single-file report inlined: plain JSON, or gzip + base64 when it was large. */
export async function readInlineData(element: HTMLElement): Promise<ReportData> {
  const text = element.textContent ?? '';
  if (element.getAttribute('type') !== 'application/gzip-base64') return JSON.parse(text) as ReportData;
  const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  // A Response over a local stream: no network, so the report's CSP needs no connect-src.
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text()) as ReportData;
}

/** The report's runs (and comparison), served from memory. */
export function inlineSource(data: ReportData): DataSource {
  const byId = new Map(data.reports.map((r) => [r.run.manifest.id, r]));
  const report = async (id: string): Promise<ReportRun> => {
    const found = byId.get(id);
    if (!found) throw new Error(`run ${id} is not in this report (it holds ${[...byId.keys()].join(', ')})`);
    return found;
  };
  return {
    kind: 'report',
    listRuns: () => Promise.resolve(data.runs),
    run: async (id) => (await report(id)).run,
    index: async (id) => (await report(id)).index,
    async rows(id, positions) {
      const { rows } = await report(id);
      const found = new Map<number, RowResult>();
      for (const p of positions) {
        const row = rows[p];
        if (row) found.set(p, row);
      }
      return found;
    },
    async row(id, index) {
      const r = await report(id);
      const rows = r.rows.filter((row) => row.index === index).sort((a, b) => a.repeat - b.repeat);
      if (rows.length === 0) throw new Error(`row ${index} is not in this report`);
      return {
        rows,
        messages: r.messages[String(index)] ?? null,
        ...(r.messagesNote === undefined ? {} : { messagesNote: r.messagesNote }),
        reproduce: r.reproduce.replace('{index}', String(index)),
      };
    },
    async search(id, query) {
      const { rows } = await report(id);
      const needle = query.toLowerCase();
      const positions: number[] = [];
      rows.forEach((row, p) => {
        if (searchableText(row).includes(needle)) positions.push(p);
      });
      return positions;
    },
    agreement: async (id) => (await report(id)).agreement ?? null,
    async grid(ids) {
      const result = data.grid;
      if (!result || result.runs.map((r) => r.id).join('/') !== ids.join('/')) throw new Error(`this report holds no grid of ${ids.join(', ')}`);
      return result;
    },
    async compare(base, head) {
      const result = data.compare;
      if (!result || result.base.id !== base || result.head.id !== head) throw new Error(`this report holds no comparison of ${base} and ${head}`);
      return result;
    },
  };
}
