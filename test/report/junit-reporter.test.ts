import { expect, test } from 'vitest';
import { createJunitReporter } from '../../src/report/index.js';
import { MemoryStream, info, play, rows } from './fixtures.js';

test('junit: one test case per row × eval, failures and errors counted, XML escaped', async () => {
  const out = new MemoryStream();
  await play(createJunitReporter(out));
  expect(out.text).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="agentmark" tests="8" failures="1" errors="3" time="0.510">
  <testsuite name="prompts/math.prompt.mdx" tests="8" failures="1" errors="3" time="0.510">
    <testcase name="row 0.0 · exact" classname="math" time="0.120"/>
    <testcase name="row 0.0 · tone" classname="math" time="0.120">
      <system-out>score: 0.5, label: neutral</system-out>
    </testcase>
    <testcase name="row 0.1 · exact" classname="math" time="0.340">
      <failure message="FAIL (0.00 - mismatch)"/>
    </testcase>
    <testcase name="row 0.1 · tone" classname="math" time="0.340">
      <error message="judge timed out"/>
    </testcase>
    <testcase name="row 1.0 · exact" classname="math" time="0.050"/>
    <testcase name="row 1.0 · tone" classname="math" time="0.050">
      <system-out>score: 0.9, label: friendly, reason: warm</system-out>
    </testcase>
    <testcase name="row 1.1 · exact" classname="math" time="0.000">
      <error message="model call failed: 500"/>
    </testcase>
    <testcase name="row 1.1 · tone" classname="math" time="0.000">
      <error message="model call failed: 500"/>
    </testcase>
  </testsuite>
</testsuites>
`);
});

test('junit: escapes names and messages; uses the run duration when given', async () => {
  const out = new MemoryStream();
  const row = { ...rows[3]!, evals: { exact: { score: 0, passed: false, reason: 'said "<b>" & left' } } };
  await play(createJunitReporter(out), [row], {
    ...info,
    promptName: 'a&b',
    promptPath: 'p<1>.prompt.mdx',
    evalNames: ['exact'],
    durationMs: 2500,
  });
  expect(out.text).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="agentmark" tests="1" failures="1" errors="0" time="2.500">
  <testsuite name="p&lt;1&gt;.prompt.mdx" tests="1" failures="1" errors="0" time="2.500">
    <testcase name="row 0 · exact" classname="a&amp;b" time="0.120">
      <failure message="FAIL (0.00 - said &quot;&lt;b&gt;&quot; &amp; left)"/>
    </testcase>
  </testsuite>
</testsuites>
`);
});
