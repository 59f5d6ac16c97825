/**
 * The worker thread that looks for misplaced rows in shards (misplaced-check.ts): the files are
 * in `workerData`, the answer (one entry per file) is its one message.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { firstMisplaced, type ShardFile } from './misplaced-rows.js';

if (!parentPort) throw new Error('misplaced-worker.js runs as a worker thread');
parentPort.postMessage((workerData as ShardFile[]).map((file) => firstMisplaced(file) ?? null));
