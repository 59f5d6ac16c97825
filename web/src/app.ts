import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { DataSource } from './data/source.js';
import { ComparePage } from './pages/compare-page.js';
import { GridPage } from './pages/grid-page.js';
import { ReviewPage } from './pages/review-page.js';
import { RowPage } from './pages/row-page.js';
import { RunPage } from './pages/run-page.js';
import { RunsPage } from './pages/runs-page.js';
import { href, useRoute, type Route } from './router.js';

/** One case per page. A report's `home` is its first page, shown at `#/`. */
export function App({ source, home }: { source: DataSource; home?: Route }): VNode {
  const parsed = useRoute();
  const route = parsed.page === 'runs' && home !== undefined ? home : parsed;
  switch (route.page) {
    case 'runs':
      return html`<${RunsPage} source=${source} />`;
    case 'run':
      return html`<${RunPage} key=${route.id} source=${source} id=${route.id} />`;
    case 'row':
      return html`<${RowPage} source=${source} id=${route.id} index=${route.index} />`;
    case 'review':
      return html`<${ReviewPage} key=${route.id} source=${source} id=${route.id} query=${route.query} />`;
    case 'compare':
      return html`<${ComparePage} key=${`${route.base}/${route.head}`} source=${source} base=${route.base} head=${route.head} />`;
    case 'grid':
      return html`<${GridPage} key=${route.ids.join('/')} source=${source} ids=${route.ids} />`;
    case 'missing':
      return html`<main><h1>not found</h1><p>No page at <code>${route.hash}</code>. <a href=${href.runs()}>Back to the start.</a></p></main>`;
  }
}
