// Writes the variable tables of docs/configuration.md from src/config-variables.ts, one table per topic, and keeps the
// page's hand-written prose around them; `npm run generate:config-docs` runs it, and test/unit/config-docs.test.ts
// fails when the checked-in page differs from what this produces.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { variablesByTopic, type Variable } from '../src/config-variables.js';
import { defaultText, typeText } from '../src/config-help.js';
import { PROJECT_ROOT } from '../src/project-root.js';

export const CONFIG_DOCS_FILE = path.join(PROJECT_ROOT, 'docs', 'configuration.md');

/** The generated part of the page lies between these lines; everything outside them is written by hand. */
const BEGIN = '<!-- Generated from src/config-variables.ts by `npm run generate:config-docs`: edit the variables there, not here. -->';
const END = '<!-- End of the generated variables. -->';

const cell = (markdown: string): string => markdown.replace(/\|/g, '\\|');

function row(variable: Variable): string {
  const meaning = variable.details === undefined ? variable.meaning : `${variable.meaning}. ${variable.details}`;
  return `| \`${variable.name}\` | ${cell(typeText(variable))} | ${cell(defaultText(variable))} | ${cell(meaning)} |`;
}

function variableTables(): string {
  return variablesByTopic().map(({ topic, variables }) => [
    `## ${topic}`,
    '',
    '| variable | takes | default | meaning |',
    '|---|---|---|---|',
    ...variables.map(row),
  ].join('\n')).join('\n\n');
}

/** `current` (the page as it is) with its generated part written anew. */
export function generateConfigDocs(current: string): string {
  const begin = current.indexOf(BEGIN);
  const end = current.indexOf(END);
  if (begin === -1 || end < begin) throw new Error(`${path.relative(PROJECT_ROOT, CONFIG_DOCS_FILE)} has lost its markers of the generated part: put back the lines\n${BEGIN}\n${END}`);
  return `${current.slice(0, begin)}${BEGIN}\n\n${variableTables()}\n\n${current.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.writeFileSync(CONFIG_DOCS_FILE, generateConfigDocs(fs.readFileSync(CONFIG_DOCS_FILE, 'utf8')));
  console.log(`wrote ${path.relative(PROJECT_ROOT, CONFIG_DOCS_FILE)}`);
}
