import type { OptionTable } from './options.js';

export interface HelpInfo {
  usage: string;
  summary: string;
  options: OptionTable;
  details?: string;
}

/** Renders `--help` from the same flag table the parser uses. */
export function renderHelp(info: HelpInfo): string {
  const lines = [`Usage: ${info.usage}`, '', info.summary, '', 'Options:'];
  const rows = Object.entries(info.options).map(([name, spec]) => {
    const short = spec.short ? `-${spec.short}, ` : '    ';
    const flag = `${short}--${name}${spec.value ? ` ${spec.value}` : ''}`;
    const fallback = spec.default === undefined ? '' : ` (default: ${String(spec.default)})`;
    return [flag, `${spec.description}${fallback}`] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  for (const [flag, text] of rows) lines.push(`  ${flag.padEnd(width)}  ${text}`);
  if (info.details) lines.push('', info.details);
  return `${lines.join('\n')}\n`;
}
