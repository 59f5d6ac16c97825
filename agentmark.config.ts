// The example project's config: a custom scorer, the tools the order-status prompt calls, and
// the support agent (examples/support-agent.ts) that the support-agent prompt runs in code.
import { defineConfig, jsonSchema, tool } from 'agentmark-eval';
import { orders } from './examples/orders.js';
import { support } from './examples/support-agent.js';

export default defineConfig({
  scorers: {
    // 1 inside 40..120 words, falling off linearly to 0 at 0 or 240 words.
    reply_length: ({ output }) => {
      const words = String(output).split(/\s+/).filter(Boolean).length;
      const score = words < 40 ? words / 40 : words <= 120 ? 1 : Math.max(0, 1 - (words - 120) / 120);
      return { score, reason: `${words} words` };
    },
  },
  tools: {
    lookup_order: tool({
      description: 'Look up an order by its id and return its status',
      inputSchema: jsonSchema<{ order_id: string }>({
        type: 'object',
        properties: { order_id: { type: 'string' } },
        required: ['order_id'],
      }),
      execute: async ({ order_id }) => orders[order_id] ?? { error: `no order ${order_id}` },
    }),
    cancel_order: tool({
      description: 'Cancel an order by its id',
      inputSchema: jsonSchema<{ order_id: string }>({
        type: 'object',
        properties: { order_id: { type: 'string' } },
        required: ['order_id'],
      }),
      execute: async ({ order_id }) => ({ order_id, cancelled: true }),
    }),
  },
  agents: { support },
});
