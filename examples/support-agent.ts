// The example's agent in code: two steps, each a prompt file. The run passes `ctx`; its models,
// tools and signal are the run's own (cached, retried, recorded on the row).
import { generateText, stepCountIs, type AgentContext } from 'agentmark-eval';

export async function support(ctx: AgentContext) {
  // Step 1: the experiment's prompt (support-agent) looks the order up with its tool.
  const found = await generateText({
    model: ctx.model,
    ...ctx.prompt.render(ctx.props),
    tools: ctx.tools,
    stopWhen: stepCountIs(1),
    abortSignal: ctx.signal,
  });
  const order = found.toolResults[0]?.output ?? { error: 'no order found' };
  // Step 2: a second prompt writes the reply from the order record.
  const writer = await ctx.loadPrompt('examples/support-answer.prompt.mdx');
  return generateText({
    model: ctx.models(writer.modelName),
    ...writer.render({ question: ctx.props.question, order: JSON.stringify(order) }),
    abortSignal: ctx.signal,
  });
}
