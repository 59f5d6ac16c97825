export { datasetFromTraces, type FromTracesOptions, type FromTracesResult } from './dataset-from-traces.js';
