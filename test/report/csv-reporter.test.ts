import { expect, test } from 'vitest';
import { createCsvReporter } from '../../src/report/index.js';
import type { RowResult } from '../../src/experiment/types.js';
import { info, MemoryStream, play } from './fixtures.js';

test('csv: header, rows in index.repeat order, quoting, eval columns', async () => {
  const out = new MemoryStream();
  await play(createCsvReporter(out));
  expect(out.text).toBe(
    `index,repeat,name,tags,input,expected_output,output,error,latency_ms,cached,exact_score,exact_passed,exact_label,exact_reason,exact_error,tone_score,tone_passed,tone_label,tone_reason,tone_error
0,0,,,"{""q"":""2+2""}",4,4,,120,false,1,true,,match,,0.5,,neutral,,
0,1,,,"{""q"":""2+2""}",4,four,,340,false,0,false,,mismatch,,,,,,judge timed out
1,0,,,"{""q"":""say \\""hi\\"", then\\nwave""}",,"hi, <wave> & ""bye""",,50,true,1,true,,,,0.9,,friendly,warm,
1,1,,,"{""q"":""say \\""hi\\"", then\\nwave""}",,,model call failed: 500,,false,,,,,,,,,,
`,
  );
});

test('csv: the row name and tags have columns, every other metadata key a metadata.<key> column', async () => {
  const out = new MemoryStream();
  const base = { line: 1, input: { q: 'x' }, output: 'x', toolCalls: [], retries: 0, cached: false, evals: {} };
  const rows: RowResult[] = [
    { ...base, index: 0, repeat: 0, metadata: { name: 'refund-basic', tags: ['smoke', 'billing'], priority: 'high' } },
    { ...base, index: 1, repeat: 0, metadata: { source: { team: 'ops' }, 'a,b': 2 } },
    { ...base, index: 2, repeat: 0, metadata: {} },
  ];
  await play(createCsvReporter(out), rows, { ...info, evalNames: [] });
  expect(out.text).toBe(
    `index,repeat,name,tags,input,expected_output,output,error,latency_ms,cached,metadata.priority,metadata.source,"metadata.a,b"
0,0,refund-basic,"smoke,billing","{""q"":""x""}",,x,,,false,high,,
1,0,,,"{""q"":""x""}",,x,,,false,,"{""team"":""ops""}",2
2,0,,,"{""q"":""x""}",,x,,,false,,,
`,
  );
});
