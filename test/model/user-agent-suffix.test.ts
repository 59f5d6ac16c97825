import { withUserAgentSuffix as sdkWithUserAgentSuffix } from '@ai-sdk/provider-utils';
import { describe, expect, it } from 'vitest';
import { withUserAgentSuffix } from '../../src/model/user-agent-suffix.js';

// The CLI bundle uses ours in place of the SDK's (scripts/sdk-user-agent-plugin.mjs): for every
// input the two must give the same object, key order included, or throw alike.
const SUFFIX = ['ai-sdk/provider-utils/4.0.66', 'runtime/node.js/v20.20.2'];

function same(headers: Parameters<typeof withUserAgentSuffix>[0], parts: string[] = SUFFIX): Record<string, string> {
  const ours = withUserAgentSuffix(headers, ...parts);
  const theirs = sdkWithUserAgentSuffix(headers as Record<string, string | undefined>, ...parts);
  expect(ours).toEqual(theirs);
  expect(Object.keys(ours)).toEqual(Object.keys(theirs));
  return ours;
}

describe('withUserAgentSuffix', () => {
  it('lower-cases, sorts and appends to the user agent, as the SDK does for the provider headers', () => {
    const out = same({ 'User-Agent': 'ai-sdk/openai/3.0.0', Authorization: 'Bearer k', 'Content-Type': 'application/json', 'OpenAI-Project': undefined });
    expect(out).toEqual({
      authorization: 'Bearer k',
      'content-type': 'application/json',
      'user-agent': 'ai-sdk/openai/3.0.0 ai-sdk/provider-utils/4.0.66 runtime/node.js/v20.20.2',
    });
    expect(Object.keys(out)).toEqual(['authorization', 'content-type', 'user-agent']);
  });

  it('starts a user agent when there is none, and keeps an empty one empty without parts', () => {
    expect(same(undefined)).toEqual({ 'user-agent': 'ai-sdk/provider-utils/4.0.66 runtime/node.js/v20.20.2' });
    expect(same({ a: 'b' }, [])).toEqual({ a: 'b', 'user-agent': '' });
    expect(same({ 'user-agent': '' }, ['x', ''])).toEqual({ 'user-agent': 'x' });
  });

  it('takes the last of two spellings of one name, as normalizeHeaders does', () => {
    expect(same({ 'X-Key': '1', 'x-key': '2' })).toMatchObject({ 'x-key': '2' });
  });

  it('gives what a Headers object gives for values it trims or names it keeps', () => {
    // Surrounding whitespace is trimmed by Headers; a control character other than CR/LF/NUL passes.
    expect(same({ 'x-a': '  padded\t' })).toMatchObject({ 'x-a': 'padded' });
    expect(same({ 'x-b': 'bell\x07inside' })).toMatchObject({ 'x-b': 'bell\x07inside' });
    expect(same({ 'x-c': 'café' })).toMatchObject({ 'x-c': 'café' });
    expect(same({ 'x-d': 42 as unknown as string })).toMatchObject({ 'x-d': '42' });
    expect(same({ 'user-agent': ' spaced ' })).toMatchObject({ 'user-agent': 'spaced ai-sdk/provider-utils/4.0.66 runtime/node.js/v20.20.2' });
  });

  it('reads a Headers object and an array of pairs as the SDK does', () => {
    expect(same(new Headers({ 'X-One': '1' }))).toEqual({ 'x-one': '1', 'user-agent': 'ai-sdk/provider-utils/4.0.66 runtime/node.js/v20.20.2' });
    expect(same([['X-Two', '2']])).toEqual({ 'x-two': '2', 'user-agent': 'ai-sdk/provider-utils/4.0.66 runtime/node.js/v20.20.2' });
  });

  it('throws the same TypeError for a value or a name no header may have', () => {
    for (const bad of [{ 'x-a': 'line\nbreak' }, { 'bad name': 'v' }, { 'x-a': 'snow☃' }]) {
      expect(() => sdkWithUserAgentSuffix(bad)).toThrow(TypeError);
      expect(() => withUserAgentSuffix(bad)).toThrow(TypeError);
    }
  });
});
