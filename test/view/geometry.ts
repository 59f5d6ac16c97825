import type { Page } from 'playwright-core';

/**
 * Where things are drawn, checked in the page: the browser tests read text from the DOM, which
 * stays right when a table piles every cell into one column. These checks read the boxes.
 */

/** A table to check: each `row` inside `table`, each `cell` whose nearest `row` is that row. */
export interface TableShape {
  /** Named in the problems found, e.g. "rows table". */
  name: string;
  table: string;
  row: string;
  cell: string;
  /**
   * How it is drawn on a narrow window (≤ NARROW_PX, where style.css stacks tables into cards):
   * the lines of a card, or a row's short cells only (its long ones sit below it, full width).
   */
  narrow?: { row?: string; cell?: string; when?: string; unaligned?: true };
}

/** style.css's `max-width: 40rem` (rem in a media query is 16 px). */
export const NARROW_PX = 640;

/** The tables the viewer draws. The grid page's table (one column per run) uses `grid`; on a phone its rows are cards, each cell a line. */
export const TABLES = {
  // A phone's cards: each line's cells in one line; the lines are not columns of one table.
  rows: { name: 'rows table', table: '.rows-table', row: '.rows-head, .row', cell: '[role=columnheader], [role=cell]', narrow: { when: '.cards', row: '.row-line', unaligned: true } },
  runs: { name: 'runs table', table: 'table.runs', row: 'tr', cell: 'th, td' },
  /** The runs page's pass rate per eval: one line per eval, names and rates in two columns. */
  rates: { name: 'pass rates', table: '.rates', row: '.rates > div', cell: 'dt, dd' },
  evals: { name: 'evals table', table: 'table.evals', row: 'tr', cell: 'th, td', narrow: { cell: 'th, td:not(.reason)' } },
  compareEvals: { name: 'compare evals table', table: 'table.compare-evals', row: 'tr', cell: 'th, td', narrow: { row: 'td, th', cell: 'td, th' } },
  /** A row's labels (row page, review queue): one line per eval. */
  labels: { name: 'labels table', table: 'table.labels-table', row: 'tr', cell: 'th, td', narrow: { cell: 'th, td:not(.controls)' } },
  /** The agreement panel's confusion matrices. */
  confusion: { name: 'confusion matrix', table: 'table.confusion', row: 'tr', cell: 'th, td' },
  grid: { name: 'results grid', table: '[role=grid], table.grid', row: '[role=row], tr', cell: '[role=columnheader], [role=rowheader], [role=gridcell], [role=cell], th, td', narrow: { row: 'td', cell: 'td' } },
} as const satisfies Record<string, TableShape>;

export interface LayoutCheck {
  /** Tables that must be present on the page, checked row by row. */
  tables: readonly TableShape[];
  /** Tables checked when present (e.g. the grid, on the pages that have one). */
  optional?: readonly TableShape[];
  /** Nothing may need horizontal scrolling, not even inside a box (a wide window). @default false */
  noScrollingSideways?: boolean;
}

/** Half a pixel of rounding either way, and a border shared by neighbours. */
const SLACK = 1.5;

/**
 * Every layout problem on the page as it is drawn now, as sentences (empty when none):
 * - a table row whose cells do not share a top edge, or stick out of the row;
 * - columns that do not line up across the rows of a table (rows with as many cells as its first);
 * - two rows of a table, or two boxes side by side in a flex or grid container, that overlap;
 * - a page wider than the window (horizontal scrolling of the page);
 * - content past the window's right edge with no box that scrolls to it.
 */
export async function layoutProblems(page: Page, check: LayoutCheck): Promise<string[]> {
  return page.evaluate(inPage, { tables: check.tables, optional: check.optional ?? [], noScrollingSideways: check.noScrollingSideways ?? false, slack: SLACK, narrowPx: NARROW_PX });
}

/**
 * The problems at each window width (the page resized, then given two frames to lay out): at
 * 1280 px and more nothing may scroll sideways; narrower, a wide table may scroll in its own box.
 */
export async function viewportProblems(page: Page, check: LayoutCheck, widths: readonly number[] = [1280, 390]): Promise<Record<number, string[]>> {
  const original = page.viewportSize();
  const found: Record<number, string[]> = {};
  try {
    for (const width of widths) {
      await page.setViewportSize({ width, height: original?.height ?? 900 });
      // two frames: the resize, then whatever the page lays out in response (virtualised rows)
      await page.evaluate(() => new Promise<void>((done) => (globalThis as unknown as Frames).requestAnimationFrame(() => (globalThis as unknown as Frames).requestAnimationFrame(() => done()))));
      found[width] = await layoutProblems(page, { ...check, noScrollingSideways: check.noScrollingSideways ?? width >= 1280 });
    }
  } finally {
    if (original) await page.setViewportSize(original);
  }
  return found;
}

interface Frames {
  requestAnimationFrame(callback: () => void): void;
}

/** The browser globals `inPage` uses: it runs in the page, not in Node. */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}
interface El {
  tagName: string;
  namespaceURI: string | null;
  children: ArrayLike<El>;
  parentElement: El | null;
  className: unknown;
  scrollWidth: number;
  clientWidth: number;
  textContent: string | null;
  getBoundingClientRect(): Box;
  querySelectorAll(selector: string): ArrayLike<El>;
  closest(selector: string): El | null;
  matches(selector: string): boolean;
  getAttribute(name: string): string | null;
}
interface Style {
  display: string;
  position: string;
  overflowX: string;
  visibility: string;
}
interface PageGlobals {
  document: { documentElement: El; body: El; querySelectorAll(selector: string): ArrayLike<El> };
  innerWidth: number;
  getComputedStyle(el: El): Style;
}

function inPage({ tables, optional, noScrollingSideways, slack, narrowPx }: { tables: readonly TableShape[]; optional: readonly TableShape[]; noScrollingSideways: boolean; slack: number; narrowPx: number }): string[] {
  const { document, innerWidth, getComputedStyle } = globalThis as unknown as PageGlobals;
  const drawn = (shape: TableShape, table: El): TableShape =>
    innerWidth <= narrowPx && shape.narrow && (shape.narrow.when === undefined || table.matches(shape.narrow.when)) ? { ...shape, ...shape.narrow } : shape;
  const problems: string[] = [];
  const shown = (el: El): boolean => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const describe = (el: El): string => {
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
    const cls = typeof el.className === 'string' && el.className !== '' ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${el.tagName.toLowerCase()}${cls}${text === '' ? '' : ` "${text}"`}`;
  };
  const overlap = (a: Box, b: Box): boolean => Math.min(a.right, b.right) - Math.max(a.left, b.left) > slack && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > slack;

  const checkTable = (given: TableShape, table: El, t: number): void => {
    const shape = drawn(given, table);
    const name = `${shape.name}${t > 0 ? ` ${t + 1}` : ''}`;
    const rows = Array.from(table.querySelectorAll(shape.row)).filter((r) => r.closest(shape.table) === table && shown(r));
    if (rows.length === 0) return void problems.push(`${name}: no rows drawn`);
    const cellsOf = (row: El): El[] => Array.from(row.querySelectorAll(shape.cell)).filter((c) => c.closest(shape.row) === row && shown(c));
    const first = cellsOf(rows[0] as El);
    const lefts = first.map((c) => c.getBoundingClientRect().left);
    rows.forEach((row, i) => {
      const box = row.getBoundingClientRect();
      const cells = cellsOf(row);
      const boxes = cells.map((c) => c.getBoundingClientRect());
      const top = boxes[0]?.top ?? box.top;
      boxes.forEach((b, k) => {
        if (Math.abs(b.top - top) > slack) problems.push(`${name} row ${i}: cell ${k} starts ${Math.round(b.top - top)} px below cell 0 (${describe(cells[k] as El)})`);
        if (b.top < box.top - slack || b.bottom > box.bottom + slack) problems.push(`${name} row ${i}: cell ${k} sticks out of its row (${describe(cells[k] as El)})`);
        const previous = boxes[k - 1];
        if (previous && overlap(previous, b)) problems.push(`${name} row ${i}: cells ${k - 1} and ${k} overlap`);
      });
      if (cells.length === lefts.length && !('unaligned' in shape && shape.unaligned)) {
        boxes.forEach((b, k) => {
          const left = lefts[k] as number;
          if (Math.abs(b.left - left) > slack) problems.push(`${name} row ${i}: column ${k} starts at ${Math.round(b.left)} px, in the first row at ${Math.round(left)} px`);
        });
      }
      const next = rows[i + 1];
      if (next && overlap(box, next.getBoundingClientRect())) problems.push(`${name}: rows ${i} and ${i + 1} overlap`);
    });
  };
  for (const shape of tables) {
    const found = Array.from(document.querySelectorAll(shape.table));
    if (found.length === 0) problems.push(`${shape.name}: not on the page (${shape.table})`);
    found.forEach((table, t) => checkTable(shape, table, t));
  }
  for (const shape of optional) Array.from(document.querySelectorAll(shape.table)).forEach((table, t) => checkTable(shape, table, t));

  // Boxes laid out side by side by flex or grid must not cover each other.
  const html = 'http://www.w3.org/1999/xhtml';
  for (const parent of Array.from(document.body.querySelectorAll('*'))) {
    if (parent.namespaceURI !== html) continue;
    const display = getComputedStyle(parent).display;
    if (!/flex|grid/.test(display)) continue;
    const kids = Array.from(parent.children).filter((k) => k.namespaceURI === html && shown(k) && getComputedStyle(k).position !== 'absolute');
    for (let a = 0; a < kids.length; a++) {
      for (let b = a + 1; b < kids.length; b++) {
        const ka = kids[a] as El;
        const kb = kids[b] as El;
        if (overlap(ka.getBoundingClientRect(), kb.getBoundingClientRect())) problems.push(`${describe(ka)} and ${describe(kb)} overlap (in ${describe(parent).slice(0, 30)})`);
      }
    }
  }

  // The page itself never scrolls sideways; a wide table scrolls inside its own box.
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + slack) problems.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window: it scrolls sideways`);
  if (noScrollingSideways) {
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (/auto|scroll/.test(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + slack) problems.push(`${describe(el).slice(0, 60)} scrolls sideways (${el.scrollWidth} px of content in ${el.clientWidth} px)`);
    }
  }
  const scrolls = (el: El): boolean => {
    for (let up: El | null = el.parentElement; up; up = up.parentElement) {
      if (up === root || up === document.body) return false;
      if (/auto|scroll/.test(getComputedStyle(up).overflowX)) return true;
    }
    return false;
  };
  const clipped = (el: El): boolean => {
    for (let up: El | null = el.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX === 'hidden' && up.getBoundingClientRect().right <= innerWidth + slack) return true;
    return false;
  };
  const unreachable = Array.from(document.body.querySelectorAll('*')).filter(
    (el) => el.namespaceURI === html && el.children.length === 0 && shown(el) && el.getBoundingClientRect().right > innerWidth + slack && !scrolls(el) && !clipped(el),
  );
  for (const el of unreachable.slice(0, 5)) problems.push(`${describe(el)} reaches ${Math.round(el.getBoundingClientRect().right)} px, past the ${innerWidth} px window, and nothing scrolls to it`);
  return problems;
}

/**
 * The elements matching `selector` (shown ones) that are not wholly inside the window's width:
 * on screen as the page opens, with no box to scroll sideways. As sentences; empty when none.
 */
export async function outsideWindow(page: Page, selector: string): Promise<string[]> {
  return page.evaluate(
    ({ selector, slack }) => {
      const { document, innerWidth, getComputedStyle } = globalThis as unknown as PageGlobals;
      const found = Array.from(document.querySelectorAll(selector)).filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      });
      if (found.length === 0) return [`nothing matches ${selector}`];
      return found
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.left < -slack || box.right > innerWidth + slack;
        })
        .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" spans ${Math.round(el.getBoundingClientRect().left)}–${Math.round(el.getBoundingClientRect().right)} px of a ${innerWidth} px window`);
    },
    { selector, slack: SLACK },
  );
}

/** At `width` px wide (then back to the size before): what `measure` finds. */
export async function atWidth<T>(page: Page, width: number, measure: () => Promise<T>): Promise<T> {
  const original = page.viewportSize();
  try {
    await page.setViewportSize({ width, height: original?.height ?? 900 });
    await page.evaluate(() => new Promise<void>((done) => (globalThis as unknown as Frames).requestAnimationFrame(() => (globalThis as unknown as Frames).requestAnimationFrame(() => done()))));
    return await measure();
  } finally {
    if (original) await page.setViewportSize(original);
  }
}

/** What a chart draws, read from the page: its axes' titles, its marks, and where they fall. */
export interface ChartShape {
  /** The chart's caption (a figure's figcaption), or its aria-label. */
  caption: string;
  /** Both axes drawn, as lines with a length. */
  axes: boolean;
  xTitle: string;
  yTitle: string;
  /** Points (.point) per series (g[data-eval]); a histogram has none. */
  series: Record<string, number>;
  /** Marks (.point, .bar) in all. */
  marks: number;
  /** Marks whose centre lies outside the box the axes draw. */
  outside: number;
}

/** Every chart matching `selector` (an svg.chart, or an element holding one). */
export async function chartShapes(page: Page, selector: string): Promise<ChartShape[]> {
  return page.evaluate(
    ({ selector, slack }) => {
      const { document } = globalThis as unknown as PageGlobals;
      return Array.from(document.querySelectorAll(selector)).map((el) => {
        const svg = el.tagName.toLowerCase() === 'svg' ? el : (el.querySelectorAll('svg.chart')[0] as El);
        const x = svg.querySelectorAll('.x-axis')[0]?.getBoundingClientRect();
        const y = svg.querySelectorAll('.y-axis')[0]?.getBoundingClientRect();
        const marks = Array.from(svg.querySelectorAll('.point, .bar')).map((m) => m.getBoundingClientRect());
        const box = { left: (y?.left ?? 0) - slack, right: (x?.right ?? 0) + slack, top: (y?.top ?? 0) - slack, bottom: (x?.bottom ?? 0) + slack };
        const series: Record<string, number> = {};
        for (const g of Array.from(svg.querySelectorAll('g[data-eval]'))) series[g.getAttribute('data-eval') ?? ''] = g.querySelectorAll('.point').length;
        const text = (s: string): string => svg.querySelectorAll(s)[0]?.textContent ?? '';
        return {
          caption: el.querySelectorAll('figcaption')[0]?.textContent ?? svg.getAttribute('aria-label') ?? '',
          axes: x !== undefined && y !== undefined && x.width > 0 && y.height > 0,
          xTitle: text('.x-title'),
          yTitle: text('.y-title'),
          series,
          marks: marks.length,
          outside: marks.filter((m) => {
            const cx = m.left + m.width / 2;
            const cy = m.top + m.height / 2;
            return cx < box.left || cx > box.right || cy < box.top || cy > box.bottom;
          }).length,
        };
      });
    },
    { selector, slack: SLACK },
  );
}
