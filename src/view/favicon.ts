/**
 * The viewer's icon as a data: URL (both Content-Security-Policies allow `img-src data:`), so
 * no browser asks the server for /favicon.ico and logs its 404. web/index.html holds the same
 * text (it is static HTML, built by Vite); test/view/layout.test.ts checks the two agree.
 */
export const FAVICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%231f57c3'/%3E%3Cpath d='M4 8.5l2.5 2.5L12 5' stroke='white' stroke-width='2' fill='none'/%3E%3C/svg%3E";
