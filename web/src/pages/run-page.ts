import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { RowIndex, RowResult, RunEvent, RunResponse } from '../api.js';
import { appendColumns } from '../data/row-columns.js';
import { FlipsLine, useNewerRun } from './flips-line.js';
import { EvalCard } from '../components/eval-card.js';
import { RowsTable } from '../components/rows-table.js';
import type { DataSource } from '../data/source.js';
import { useKeys } from '../keyboard.js';
import { href, navigate } from '../router.js';
import { applyQuery, defaultQuery, type RowFilter, type RowQuery } from '../row-query.js';
import { LatencyCard } from './latency-card.js';
import { RunHeader } from './run-header.js';
import { RunReview } from './run-review.js';

interface Loaded {
  run: RunResponse;
  /** Grown in place by live rows; `count` says how far, and changes when it grows. */
  columns: RowIndex;
  count: number;
  /** False while only the run (header, summary) has arrived. */
  indexed: boolean;
}

function emptyIndex(evalNames: string[]): RowIndex {
  return { evalNames, index: [], repeat: [], flags: [], latencyMs: [], costUsd: [], verdicts: '', scores: evalNames.map(() => []), labels: evalNames.map(() => []) };
}

/** A report shows its first page at `#/`: there is nothing to go back to from there. */
const atHome = (): boolean => location.hash === '' || location.hash === '#/' || location.hash === '#';

/** Header, one card per eval, latency, then every row (virtualised, filtered, sorted). */
export function RunPage({ source, id }: { source: DataSource; id: string }): VNode {
  const [loaded, setLoaded] = useState<Loaded | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [query, setQuery] = useState<RowQuery>(defaultQuery);
  const [searchText, setSearchText] = useState('');
  const [selected, setSelected] = useState(-1);
  const [flipped, setFlipped] = useState(0);
  const rows = useRef(new Map<number, RowResult>());
  const pending = useRef(new Set<number>());
  const search = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let stop: (() => void) | undefined;
    let cancelled = false;
    rows.current = new Map();
    // The header and the eval cards come from the run alone: they show while the index loads.
    const index = source.index(id);
    // Handled below, once the run is in; this keeps an early failure from counting as unhandled.
    index.catch(() => undefined);
    source
      .run(id)
      .then((run) => {
        if (!cancelled) setLoaded((current) => current ?? { run, columns: emptyIndex(run.evalNames), count: 0, indexed: false });
        return Promise.all([run, index]);
      })
      .then(([run, index]) => {
        if (cancelled) return;
        const state: Loaded = { run, columns: index, count: index.index.length, indexed: true };
        setLoaded(state);
        if (source.followRun && run.manifest.status === 'running') {
          stop = source.followRun(id, state.count, (event: RunEvent) => {
            if (event.type === 'rows') {
              // Entries come in order; a gap (a missed event) is closed by the next full load.
              if (event.from === state.count) {
                // A running run's eval names arrive with its first row.
                if (state.count === 0 && state.columns.evalNames.length !== event.evalNames.length) state.columns = emptyIndex(event.evalNames);
                appendColumns(state.columns, event.entries);
                state.count = state.columns.index.length;
              }
            } else state.run = event.run;
            setLoaded({ ...state });
          });
        }
      })
      .catch((e: unknown) => setError(String(e)));
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [id]);

  useEffect(() => {
    const text = searchText.trim();
    if (text === '') return setQuery((q) => ({ ...q, matches: undefined }));
    const timer = setTimeout(() => {
      source.search(id, text).then((positions) => setQuery((q) => ({ ...q, matches: new Set(positions) })), (e: unknown) => setError(String(e)));
    }, 150);
    return () => clearTimeout(timer);
  }, [searchText, id]);

  // Flips against the previous run of this prompt (a watch rerun's predecessor), computed by the
  // server from the two indexes it holds; asked again as live rows arrive.
  const [flipState, setFlipState] = useState<{ previous: string; flips: Map<number, 'pass' | 'fail'> } | undefined>();
  const [nothingToCompare, setNothingToCompare] = useState<string | undefined>();
  const indexedCount = loaded?.indexed ? loaded.count : -1;
  useEffect(() => {
    if (indexedCount < 0 || !source.flips) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      source.flips?.(id).then((r) => {
        if (cancelled) return;
        setFlipState(r.previous === null ? undefined : { previous: r.previous, flips: new Map(r.flips) });
        setNothingToCompare(r.nothingToCompare);
      }, () => undefined);
    }, indexedCount === 0 ? 0 : 100);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [indexedCount]);
  const flips = flipState?.flips;
  const previousId = flipState?.previous;
  const newer = useNewerRun(source, loaded?.run);

  const flaky = useMemo(() => new Set(loaded?.run.manifest.summary?.flaky.map((f) => f.index) ?? []), [loaded?.run]);
  const view = useMemo(() => (loaded ? applyQuery(loaded.columns, loaded.count, query, flaky, flips) : []), [loaded, query, flaky, flips]);

  const want = (positions: number[]): void => {
    const fresh = positions.filter((p) => !pending.current.has(p) && !rows.current.has(p));
    if (fresh.length === 0) return;
    for (const p of fresh) pending.current.add(p);
    source.rows(id, fresh).then(
      (found) => {
        for (const [p, row] of found) rows.current.set(p, row);
        for (const p of fresh) pending.current.delete(p);
        setFlipped((n) => n + 1);
      },
      (e: unknown) => setError(String(e)),
    );
  };

  const openSelected = (): void => {
    const position = view[selected];
    const index = position === undefined ? undefined : loaded?.columns.index[position];
    if (index !== undefined) navigate(href.row(id, index));
  };
  useKeys({
    next: () => setSelected((s) => Math.min(s + 1, view.length - 1)),
    previous: () => setSelected((s) => Math.max(s - 1, 0)),
    open: openSelected,
    search: () => search.current?.focus(),
    back: () => (atHome() ? undefined : navigate(href.runs())),
  });

  if (error) return html`<p role="alert" class="error-text">${error}</p>`;
  if (!loaded) return html`<p class="muted" aria-busy="true">loading run ${id}…</p>`;
  const { run, columns, count } = loaded;
  const evals = run.manifest.summary?.evals ?? run.live?.evals ?? [];
  const set = (patch: Partial<RowQuery>): void => {
    setQuery((q) => ({ ...q, ...patch }));
    setSelected(-1);
  };
  const evalFilter = query.evalIndex === undefined ? '' : `${query.evalIndex}:${query.verdict ?? ''}`;
  return html`<main class="run-page" data-flipped=${flipped}>
    ${atHome() ? null : html`<nav><a href=${href.runs()}>${source.kind === 'server' ? '← all runs' : '← back to the report'}</a></nav>`}
    <${RunHeader} run=${run} />
    ${newer ? html`<p class="newer" role="status">A newer run of this prompt: <a href=${href.run(newer)}>${newer}</a></p>` : null}
    ${previousId !== undefined && flips ? html`<${FlipsLine} flips=${flips} previous=${previousId} id=${id} onShow=${() => set({ filter: 'flipped' })} />` : null}
    ${previousId === undefined && nothingToCompare ? html`<p class="flips muted" data-testid="nothing-to-compare">${nothingToCompare}</p>` : null}
    <div class="cards">
      ${evals.map((summary) => {
        const k = columns.evalNames.indexOf(summary.name);
        return html`<${EvalCard} summary=${summary} scores=${columns.scores[k] ?? []} labels=${columns.labels[k] ?? []} count=${count} position=${k} />`;
      })}
      <${LatencyCard} columns=${columns} count=${count} />
    </div>
    <${RunReview} source=${source} id=${id} />
    <section class="rows-section" aria-label="rows">
      <form class="filters" onSubmit=${(e: Event) => e.preventDefault()}>
        <label>show <select aria-label="show" value=${query.filter} onChange=${(e: Event) => set({ filter: (e.target as HTMLSelectElement).value as RowFilter })}>
          <option value="all">all rows</option><option value="failed">failed</option><option value="errored">errored</option><option value="flaky">flaky</option>${previousId !== undefined ? html`<option value="flipped">flipped since the previous run</option>` : null}
        </select></label>
        <label>eval <select aria-label="eval verdict" value=${evalFilter} onChange=${(e: Event) => {
          const [k, verdict] = (e.target as HTMLSelectElement).value.split(':');
          set(k === undefined || k === '' ? { evalIndex: undefined, verdict: undefined } : { evalIndex: Number(k), verdict: verdict ?? '' });
        }}>
          <option value="">any</option>
          ${run.evalNames.flatMap((name, k) => ['P', 'F', 'E', 'S'].map((v) => html`<option value=${`${k}:${v}`}>${name}: ${{ P: 'pass', F: 'fail', E: 'error', S: 'skip' }[v]}</option>`))}
        </select></label>
        <label>sort <select aria-label="sort" value=${`${query.sort}:${query.descending ? 'desc' : 'asc'}`} onChange=${(e: Event) => {
          const value = (e.target as HTMLSelectElement).value;
          const cut = value.lastIndexOf(':');
          set({ sort: value.slice(0, cut) as RowQuery['sort'], descending: value.slice(cut + 1) === 'desc' });
        }}>
          <option value="index:asc">dataset order</option><option value="position:asc">finish order</option>
          <option value="latency:desc">latency, slowest first</option><option value="latency:asc">latency, fastest first</option>
          <option value="cost:desc">cost, highest first</option>
          ${run.evalNames.flatMap((name, k) => [
            html`<option value=${`eval:${k}:asc`}>${name} score, lowest first</option>`,
            html`<option value=${`eval:${k}:desc`}>${name} score, highest first</option>`,
          ])}
        </select></label>
        <label class="search">search <input ref=${search} type="search" aria-label="search rows" placeholder="text in input, output, reasons… ( / )" value=${searchText}
          onInput=${(e: Event) => setSearchText((e.target as HTMLInputElement).value)} /></label>
        <span class="count" aria-live="polite"><span data-testid="shown-count">${view.length}</span> of ${count} rows</span>
      </form>
      ${loaded.indexed ? null : html`<p class="muted" aria-busy="true">loading the rows…</p>`}
      <${RowsTable} runId=${id} evalNames=${run.evalNames} columns=${columns} view=${view} flips=${flips} rows=${rows.current} want=${want}
        selected=${selected} onSelect=${setSelected} />
      <p class="muted keys">keys: j / k move, Enter opens, / searches, Esc goes back</p>
    </section>
  </main>`;
}
