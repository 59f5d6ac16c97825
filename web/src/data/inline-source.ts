import type { ReportData, RowResult } from '../api.js';
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

/** The report's one run, served from memory. */
export function inlineSource(data: ReportData): DataSource {
  const id = data.run.manifest.id;
  const check = (asked: string): void => {
    if (asked !== id) throw new Error(`this report holds run ${id} only`);
  };
  return {
    kind: 'report',
    listRuns: () => Promise.resolve(data.runs),
    run: async (asked) => (check(asked), data.run),
    index: async (asked) => (check(asked), data.index),
    async rows(asked, positions) {
      check(asked);
      const found = new Map<number, RowResult>();
      for (const p of positions) {
        const row = data.rows[p];
        if (row) found.set(p, row);
      }
      return found;
    },
    async row(asked, index) {
      check(asked);
      const rows = data.rows.filter((row) => row.index === index).sort((a, b) => a.repeat - b.repeat);
      if (rows.length === 0) throw new Error(`row ${index} is not in this report`);
      return {
        rows,
        messages: data.messages[String(index)] ?? null,
        ...(data.messagesNote === undefined ? {} : { messagesNote: data.messagesNote }),
        reproduce: data.reproduce.replace('{index}', String(index)),
      };
    },
    async search(asked, query) {
      check(asked);
      const needle = query.toLowerCase();
      const positions: number[] = [];
      data.rows.forEach((row, p) => {
        if (searchableText(row).includes(needle)) positions.push(p);
      });
      return positions;
    },
  };
}
