// The SANDBOX_* variables described from their declaration: the words for a type and a default, which the docs
// generator shares, and the plain-text help a command prints (`mail-sandbox serve --help`).
import { variablesByTopic, type Variable } from './config-variables.js';

const UNIT_WORDS = { ms: 'milliseconds', seconds: 'seconds', minutes: 'minutes', hours: 'hours' } as const;

/** What a variable takes, in Markdown: its type with its bounds. */
export function typeText(variable: Variable): string {
  switch (variable.type) {
    case 'int': {
      const min = variable.min ?? 1;
      const unit = variable.unit === undefined ? '' : ` (${variable.unit})`;
      return variable.max === undefined ? `whole number ≥ ${min}${unit}` : `whole number ${min}-${variable.max}${unit}`;
    }
    case 'duration': return `${UNIT_WORDS[variable.unit]} ≥ 1`;
    case 'number': return `number > 0, ≤ ${variable.max}`;
    case 'size': return 'size ≥ 1k: bytes, or with `k`/`m`/`g` (1024-based)';
    case 'port': return 'port 0-65535 (`0` picks a free one)';
    case 'bool': return '`0` or `1`';
    case 'enum': return `one of ${variable.values.map((value) => `\`${value}\``).join(', ')}`;
    case 'url': return `${variable.protocols.map((protocol) => protocol.slice(0, -1)).join(' or ')} URL`;
    case 'list': return `comma-separated: ${variable.item}`;
    case 'string': return variable.format ?? 'text';
    case 'json': return 'JSON';
  }
}

/** The value an unset variable takes, in Markdown. */
export function defaultText(variable: Variable): string {
  if ('derived' in variable) return variable.derived;
  if ('unset' in variable) return `(${variable.unset})`;
  if (variable.default === '') return '(empty)';
  if (typeof variable.default === 'boolean') return variable.default ? '`1`' : '`0`';
  return `\`${variable.default}\``;
}

/** Markdown as a terminal shows it: code and emphasis marks dropped, a link's text kept. */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/\*\*([^*]+)\*\*/g, '$1').replace(/`([^`]*)`/g, '$1');
}

/** Help lines are wrapped to this many columns. */
const HELP_WIDTH = 100;

function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && indent.length + line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(indent + line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

/** Every variable by topic: its name, what it takes, its default and its one-line meaning. */
export function configurationHelp(): string {
  const sections = variablesByTopic().map(({ topic, variables }) => [
    `${topic}:`,
    ...variables.flatMap((variable) => [
      `  ${variable.name}=<${plainText(typeText(variable))}>`,
      ...wrap(`${plainText(variable.meaning)}. Default: ${plainText(defaultText(variable))}.`, '      '),
    ]),
  ].join('\n'));
  return [
    'Configuration: environment variables. A bad value stops the server with one line naming the variable;',
    'a SANDBOX_* variable that is none of these is ignored, with a warning at start.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
}
