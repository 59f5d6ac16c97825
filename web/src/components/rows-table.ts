import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';
import type { RowIndex, RowResult } from '../api.js';
import { verdictAt } from '../data/row-columns.js';
import { cellText, ms, number } from '../format.js';
import { href } from '../router.js';
import { Chip } from './chip.js';
import { gridTemplate, type GridColumn } from './grid-template.js';

export const ROW_HEIGHT = 40;

export interface RowsTableProps {
  runId: string;
  evalNames: string[];
  columns: RowIndex;
  /** Positions to show, in order. */
  view: readonly number[];
  /** Rows fetched so far, by position. */
  rows: ReadonlyMap<number, RowResult>;
  /** Asks for the rows now on screen; the parent fetches and re-renders. */
  want: (positions: number[]) => void;
  /** Rows that flipped since the previous run, with the verdict they flipped to. */
  flips?: ReadonlyMap<number, 'pass' | 'fail'>;
  selected: number;
  onSelect: (viewIndex: number) => void;
}

/** #, input, output, expected, one per eval, latency. */
function rowsColumns(evalCount: number): GridColumn[] {
  return [{ min: 4.5 }, { min: 8, fr: 2 }, { min: 8, fr: 2 }, { min: 8, fr: 1.5 }, ...Array.from({ length: evalCount }, () => ({ min: 6, fr: 1 })), { min: 5.5 }];
}

function evalDetail(row: RowResult | undefined, name: string): string | undefined {
  const result = row?.evals[name];
  if (!result) return undefined;
  if (result.label !== undefined) return result.label;
  if (result.score !== undefined && result.passed === undefined) return number(result.score, 2);
  return undefined;
}

function flipMark(to: 'pass' | 'fail' | undefined): VNode | null {
  if (to === undefined) return null;
  const text = to === 'fail' ? 'flipped from pass to fail' : 'flipped from fail to pass';
  return html`<span class=${`flip flip-${to}`} title=${text} aria-label=${text}>${to === 'fail' ? '▼' : '▲'}</span>`;
}

/**
 * The rows table, virtualised with @tanstack/virtual-core: only the rows on screen (and a few
 * either side) are in the DOM, and only their full data is fetched, so 100,000 rows scroll like
 * 100. The index (numbers per row) is all that is loaded up front.
 */
export function RowsTable(props: RowsTableProps): VNode {
  const scroller = useRef<HTMLDivElement>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [virtualizer] = useState(
    () =>
      new Virtualizer<HTMLDivElement, HTMLDivElement>({
        count: props.view.length,
        getScrollElement: () => scroller.current,
        estimateSize: () => ROW_HEIGHT,
        scrollToFn: elementScroll,
        observeElementRect,
        observeElementOffset,
        overscan: 12,
        // The scroller's size before ResizeObserver reports it (a frame or more later, longer on
        // a busy machine): the first rows render, and are fetched, on the first pass.
        initialRect: { width: innerWidth, height: Math.min(innerHeight * 0.65, 720) },
        onChange: () => rerender(0),
      }),
  );
  virtualizer.setOptions({ ...virtualizer.options, count: props.view.length });
  useLayoutEffect(() => virtualizer._didMount(), [virtualizer]);
  useLayoutEffect(() => virtualizer._willUpdate());
  const items = virtualizer.getVirtualItems();
  const missing = items.map((item) => props.view[item.index] as number).filter((p) => !props.rows.has(p));
  // A layout effect, not an effect: effects wait for the next animation frame, which a busy
  // machine's compositor can hold back for seconds, and the fetch need not wait for a paint.
  useLayoutEffect(() => {
    if (missing.length > 0) props.want(missing);
  }, [missing.join(',')]);
  useEffect(() => {
    if (props.selected >= 0 && props.selected < props.view.length) virtualizer.scrollToIndex(props.selected, { align: 'auto' });
  }, [props.selected]);

  const template = gridTemplate(rowsColumns(props.evalNames.length));
  const { columns } = props;
  return html`<div class="rows-table" role="table" aria-label="rows" aria-rowcount=${props.view.length + 1}>
    <div class="rows-wide" style=${template}>
      <div class="rows-head" role="row">
        <span role="columnheader">#</span><span role="columnheader">input</span><span role="columnheader">output</span>
        <span role="columnheader">expected</span>
        ${props.evalNames.map((name) => html`<span role="columnheader" title=${name}>${name}</span>`)}
        <span role="columnheader">latency</span>
      </div>
      <div class="rows-scroll" ref=${scroller} tabindex="-1" data-testid="rows-scroll">
        <div class="rows-sizer" style=${{ height: `${virtualizer.getTotalSize()}px` }}>
          ${items.map((item) => {
            const position = props.view[item.index] as number;
            const index = columns.index[position] as number;
            const repeat = columns.repeat[position] as number;
            const row = props.rows.get(position);
            const selected = item.index === props.selected;
            return html`<div
              key=${position}
              role="row"
              aria-rowindex=${item.index + 2}
              aria-selected=${selected}
              class=${`row${selected ? ' selected' : ''}${(columns.flags[position] as number) & 1 ? ' errored' : ''}`}
              data-index=${index}
              style=${{ transform: `translateY(${item.start}px)` }}
              onClick=${() => props.onSelect(item.index)}
            >
              <span role="cell"><a href=${href.row(props.runId, index)}>${index}${repeat > 0 ? `·${repeat}` : ''}</a>${flipMark(props.flips?.get(position))}</span>
              <span role="cell" class="text">${row ? cellText(row.input) : '…'}</span>
              <span role="cell" class="text">${row ? (row.error !== undefined ? html`<span class="error-text">${cellText(row.error)}</span>` : cellText(row.output)) : '…'}</span>
              <span role="cell" class="text">${row ? cellText(row.expectedOutput) : '…'}</span>
              ${props.evalNames.map((name, k) => html`<span role="cell"><${Chip} verdict=${verdictAt(columns, position, k)} detail=${evalDetail(row, name)} /></span>`)}
              <span role="cell" class="num">${ms(columns.latencyMs[position])}</span>
            </div>`;
          })}
        </div>
      </div>
    </div>
  </div>`;
}
