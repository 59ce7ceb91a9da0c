// The declaration of the SANDBOX_* variables is their one source: docs/configuration.md must be what it generates,
// and no source file may name a variable it does not declare, nor it one that config.ts does not read.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { CONFIG_DOCS_FILE, generateConfigDocs } from '../../scripts/generate-config-docs.js';
import { configurationHelp } from '../../src/config-help.js';
import { VARIABLES, type Variable } from '../../src/config-variables.js';
import { PROJECT_ROOT } from '../../src/project-root.js';

const SRC = path.join(PROJECT_ROOT, 'src');
const DECLARATION_FILE = path.join(SRC, 'config-variables.ts');

/**
 * A variable's name wherever a source names it: in a literal, a message or a comment. The word boundary leaves out the
 * client's MAIL_SANDBOX_URL and MAIL_SANDBOX_KEY, and a trailing `_*` or `_${...}` a family of names such as SANDBOX_DNS_*.
 */
const VARIABLE_NAME = /\bSANDBOX_[A-Z0-9_]*[A-Z0-9]\b(?![_*$])/g;

function sourceFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && file !== DECLARATION_FILE ? [file] : [];
  });
}

const declared = Object.values<Variable>(VARIABLES);

describe('configuration declaration', () => {
  it('docs/configuration.md is what npm run generate:config-docs writes', () => {
    const current = fs.readFileSync(CONFIG_DOCS_FILE, 'utf8');
    assert.ok(current === generateConfigDocs(current), 'docs/configuration.md is stale: run `npm run generate:config-docs` and commit the result');
  });

  it('declares every SANDBOX_ variable a source file under src/ names', () => {
    const undeclared = sourceFiles(SRC).flatMap((file) => {
      const names = new Set(fs.readFileSync(file, 'utf8').match(VARIABLE_NAME) ?? []);
      return [...names].filter((name) => !Object.hasOwn(VARIABLES, name)).map((name) => `${path.relative(PROJECT_ROOT, file)}: ${name}`);
    });
    assert.deepEqual(undeclared, [], 'declare these in src/config-variables.ts (then run `npm run generate:config-docs`), or correct the name');
  });

  it('declares only variables that config.ts reads', () => {
    const config = fs.readFileSync(path.join(SRC, 'config.ts'), 'utf8');
    const unread = declared.filter((variable) => !new RegExp(`\\b${variable.name}\\b`).test(config)).map((variable) => variable.name);
    assert.deepEqual(unread, [], 'these are declared but config.ts never reads them');
  });

  it('gives each variable one default, derived default or unset meaning, and a meaning of one line', () => {
    for (const variable of declared) {
      const fallbacks = ['default', 'derived', 'unset'].filter((key) => key in variable);
      assert.equal(fallbacks.length, 1, `${variable.name} has ${fallbacks.join(', ') || 'no fallback'}`);
      assert.match(variable.meaning, /^[^\n]*[^.\n]$/, `${variable.name}'s meaning is one line without a closing period (the renderers add it)`);
    }
  });

  it('renders help naming every variable with its default', () => {
    const help = configurationHelp();
    for (const variable of declared) assert.ok(help.includes(`  ${variable.name}=<`), variable.name);
    assert.match(help, /SANDBOX_HTTP_PORT=<port 0-65535 \(0 picks a free one\)>\n\s+HTTP API port .*Default: 8025\./);
    assert.match(help, /SANDBOX_MAX_MESSAGE_BYTES=<size .*>\n\s+largest message accepted; advertised as SIZE\. Default: 25m\./);
  });
});
