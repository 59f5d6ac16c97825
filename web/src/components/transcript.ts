import { html } from 'htm/preact';
import type { VNode } from 'preact';
import type { RowResult } from '../api.js';
import { Chip } from './chip.js';

type Conversation = NonNullable<RowResult['conversation']>;
type Turn = Conversation['turns'][number];
type Scored = NonNullable<Turn['evals']>[string];

function verdictOf(result: Scored): string {
  if (result.error !== undefined) return 'E';
  if (result.skipped) return 'S';
  if (result.passed === true) return 'P';
  if (result.passed === false) return 'F';
  return '-';
}

const ENDED: Record<Conversation['endedBy'], string> = {
  stop: 'ended by the stop text',
  max_turns: 'ended at max_turns',
  error: 'ended by an error',
};

function TurnView({ turn }: { turn: Turn }): VNode {
  const source = turn.simulated ? 'simulated' : turn.given ? 'given' : undefined;
  const evals = Object.entries(turn.evals ?? {});
  return html`<li class=${`turn turn-${turn.role}${turn.simulated ? ' turn-simulated' : ''}`} data-turn=${turn.index}>
    <div class="turn-head">
      <span class="turn-role">${turn.role}</span>
      ${source === undefined ? null : html`<span class="turn-source">${source}</span>`}
    </div>
    <pre class="turn-text">${turn.content}</pre>
    ${evals.length > 0
      ? html`<ul class="turn-evals" aria-label="turn evals">${evals.map(
          ([name, result]) => html`<li title=${result.error ?? result.reason ?? ''}><${Chip} verdict=${verdictOf(result)} /> <span class="mono">${name}</span></li>`,
        )}</ul>`
      : null}
  </li>`;
}

/**
 * A conversation row's transcript as a chat: the user's turns on the right, the assistant's on
 * the left with their turn evals' verdicts under them; the simulated user's and the dataset's
 * given turns are marked as such.
 */
export function Transcript({ conversation }: { conversation: Conversation }): VNode {
  // Turns are the user's (as max_turns, the turns eval and the terminal's [3t stop] count them).
  const users = conversation.turns.filter((turn) => turn.role === 'user').length;
  return html`<section class="transcript" aria-label="conversation">
    <ol class="turns">${conversation.turns.map((turn) => html`<${TurnView} turn=${turn} />`)}</ol>
    <p class=${`muted ended ended-${conversation.endedBy}`} data-testid="ended-by">${users} turn${users === 1 ? '' : 's'}, ${ENDED[conversation.endedBy]}</p>
  </section>`;
}
