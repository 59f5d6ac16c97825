import { expect, test } from 'vitest';
import { createCsvReporter } from '../../src/report/index.js';
import { MemoryStream, play } from './fixtures.js';

test('csv: header, rows in index.repeat order, quoting, eval columns', async () => {
  const out = new MemoryStream();
  await play(createCsvReporter(out));
  expect(out.text).toBe(
    `index,repeat,input,expected_output,output,error,latency_ms,cached,exact_score,exact_passed,exact_label,exact_reason,exact_error,tone_score,tone_passed,tone_label,tone_reason,tone_error
0,0,"{""q"":""2+2""}",4,4,,120,false,1,true,,match,,0.5,,neutral,,
0,1,"{""q"":""2+2""}",4,four,,340,false,0,false,,mismatch,,,,,,judge timed out
1,0,"{""q"":""say \\""hi\\"", then\\nwave""}",,"hi, <wave> & ""bye""",,50,true,1,true,,,,0.9,,friendly,warm,
1,1,"{""q"":""say \\""hi\\"", then\\nwave""}",,,model call failed: 500,,false,,,,,,,,,,
`,
  );
});
