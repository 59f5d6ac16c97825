export { startViewServer, type ViewServer, type ViewServerOptions } from './server.js';
export { buildCompareReportData, buildReportData, renderReportHtml } from './single-file.js';
