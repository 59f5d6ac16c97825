export { startViewServer, type ViewServer, type ViewServerOptions } from './server.js';
export { buildCompareReportData, buildGridReportData, buildReportData, renderReportHtml } from './single-file.js';
