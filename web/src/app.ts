import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { DataSource } from './data/source.js';
import { RowPage } from './pages/row-page.js';
import { RunPage } from './pages/run-page.js';
import { RunsPage } from './pages/runs-page.js';
import { href, useRoute } from './router.js';

/** One case per page; a compare page is one more case (and one more Route variant). */
export function App({ source, home }: { source: DataSource; home?: string }): VNode {
  const route = useRoute();
  if (route.page === 'runs' && home !== undefined) return html`<${RunPage} source=${source} id=${home} />`;
  switch (route.page) {
    case 'runs':
      return html`<${RunsPage} source=${source} />`;
    case 'run':
      return html`<${RunPage} key=${route.id} source=${source} id=${route.id} />`;
    case 'row':
      return html`<${RowPage} source=${source} id=${route.id} index=${route.index} />`;
    case 'missing':
      return html`<main><h1>not found</h1><p>No page at <code>${route.hash}</code>. <a href=${href.runs()}>Back to the start.</a></p></main>`;
  }
}
