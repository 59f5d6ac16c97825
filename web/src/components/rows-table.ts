import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import { html } from 'htm/preact';
import type { VNode } from 'preact';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'preact/hooks';
import type { RowIndex, RowResult } from '../api.js';
import { verdictAt } from '../data/row-columns.js';
import { cellText, fullText, inputText, ms, number } from '../format.js';
import { useNarrow } from '../narrow.js';
import { href } from '../router.js';
import { Chip } from './chip.js';
import { gridTemplate, type GridColumn } from './grid-template.js';

export const ROW_HEIGHT = 40;
/** A card's lines on a narrow window: the index and input; the output; two verdicts a line, then the latency. */
const CARD_LINE = 24;
const CARD_PADDING = 10;
// +1: the bottom border, inside the height (border-box).
const cardHeight = (evalCount: number): number => 2 * CARD_PADDING + CARD_LINE * (2 + Math.ceil((evalCount + 1) / 2)) + 1;

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

/** `[a, b], [c, d], [e]`: the verdicts (and the latency) of a card, two a line. */
function pairs<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += 2) out.push(items.slice(i, i + 2));
  return out;
}

/**
 * The rows table, virtualised with @tanstack/virtual-core: only the rows on screen (and a few
 * either side) are in the DOM, and only their full data is fetched, so 100,000 rows scroll like
 * 100. The index (numbers per row) is all that is loaded up front. On a narrow window each row
 * is a card (index and input; output; each verdict with its eval's name; latency), so the
 * verdicts are on screen rather than past the right edge of a table that scrolls sideways.
 * The cells are grouped in lines (`.row-line`), which a wide window lays out as one grid row.
 */
export function RowsTable(props: RowsTableProps): VNode {
  const scroller = useRef<HTMLDivElement>(null);
  const narrow = useNarrow();
  const height = narrow ? cardHeight(props.evalNames.length) : ROW_HEIGHT;
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [virtualizer] = useState(
    () =>
      new Virtualizer<HTMLDivElement, HTMLDivElement>({
        count: props.view.length,
        getScrollElement: () => scroller.current,
        estimateSize: () => height,
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
  virtualizer.setOptions({ ...virtualizer.options, count: props.view.length, estimateSize: () => height });
  useLayoutEffect(() => virtualizer.measure(), [height]);
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
  return html`<div class=${`rows-table${narrow ? ' cards' : ''}`} role="table" aria-label="rows" aria-rowcount=${props.view.length + 1}>
    <div class="rows-wide" style=${narrow ? { '--grid-columns': template['--grid-columns'] } : template}>
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
              style=${{ transform: `translateY(${item.start}px)`, ...(narrow ? { height: `${height}px` } : {}) }}
              onClick=${() => props.onSelect(item.index)}
            >
              <div class="row-line row-top">
                <span role="cell" class="row-number"><a href=${href.row(props.runId, index)}>${index}${repeat > 0 ? `·${repeat}` : ''}</a>${flipMark(props.flips?.get(position))}</span>
                <span role="cell" class="text input-cell" title=${row ? fullText(row.input) : undefined}>${row ? inputText(row.input) : '…'}</span>
              </div>
              <div class="row-line row-texts">
                <span role="cell" class="text output-cell">${row ? (row.error !== undefined ? html`<span class="error-text">${cellText(row.error)}</span>` : cellText(row.output)) : '…'}</span>
                <span role="cell" class="text expected-cell">${row ? cellText(row.expectedOutput) : '…'}</span>
              </div>
              ${pairs([
                ...props.evalNames.map(
                  (name, k) => html`<span role="cell" class="verdict-cell" data-eval=${name}><span class="cell-eval" aria-hidden="true">${name}</span><${Chip} verdict=${verdictAt(columns, position, k)} detail=${evalDetail(row, name)} /></span>`,
                ),
                html`<span role="cell" class="num latency"><span class="cell-eval" aria-hidden="true">latency</span>${ms(columns.latencyMs[position])}</span>`,
              ]).map((line) => html`<div class="row-line row-verdicts">${line}</div>`)}
            </div>`;
          })}
        </div>
      </div>
    </div>
  </div>`;
}
