export { startViewServer, type ViewServer, type ViewServerOptions } from './server.js';
export { buildReportData, renderReportHtml } from './single-file.js';
