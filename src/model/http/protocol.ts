import type { ExchangeAnswer, ExchangeFailure, ExchangeRequest } from './exchange.js';

/** Main thread → HTTP thread: the requests of one event-loop turn, or abandoning one. */
export type ToHttpThread = { type: 'send'; requests: Array<ExchangeRequest & { id: number }> } | { type: 'cancel'; id: number };

/** HTTP thread → main thread: the exchanges that ended in one of its turns. */
export type FromHttpThread = {
  type: 'done';
  results: Array<{ id: number; answer: ExchangeAnswer } | { id: number; failure: ExchangeFailure }>;
};
