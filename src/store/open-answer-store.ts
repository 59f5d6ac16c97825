import type { AnswerStore } from './answer-store.js';

/** The shared response cache of a PostgreSQL store; `pg` is loaded only now. */
export async function openAnswerStore(url: string): Promise<AnswerStore> {
  const { PgAnswerStore } = await import('./postgres/pg-answer-store.js');
  return PgAnswerStore.connect(url);
}
