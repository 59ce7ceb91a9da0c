#!/usr/bin/env node
// `mail-sandbox`, the package's command (`npx mail-sandbox`): picks the command and hands it its arguments; each
// command lives in its own module.
import { parseArgs } from 'node:util';
import { PROJECT_VERSION } from '../project-root.js';
import { HEALTHCHECK_USAGE, ADMIN_USAGE, IMPORT_COMMAND_USAGE, MCP_USAGE, OVERVIEW_USAGE, REINDEX_USAGE, serveHelp } from './command-usage.js';

/** As the admin CLI: 2 for a command line that cannot be run. */
const EXIT_USAGE = 2;

interface Command {
  usage: () => string;
  /** Whether the command reads options of its own, and reports the ones it does not know itself. */
  ownOptions: boolean;
  run: (args: string[]) => Promise<void>;
}

/**
 * The command modules run when they are loaded and read their arguments from process.argv, as they do when started
 * alone (npm run admin), so they are given the argv they would have had.
 */
async function load(module: () => Promise<unknown>, args: string[]): Promise<void> {
  process.argv = [process.argv[0]!, process.argv[1]!, ...args];
  await module();
}

const COMMANDS: Record<string, Command> = {
  serve: { usage: serveHelp, ownOptions: false, run: async () => (await import('./serve.js')).serve() },
  admin: { usage: () => ADMIN_USAGE, ownOptions: true, run: (args) => load(() => import('./admin.js'), args) },
  import: { usage: () => IMPORT_COMMAND_USAGE, ownOptions: true, run: (args) => load(() => import('./admin.js'), ['import', ...args]) },
  reindex: { usage: () => REINDEX_USAGE, ownOptions: false, run: (args) => load(() => import('./reindex.js'), args) },
  mcp: { usage: () => MCP_USAGE, ownOptions: false, run: (args) => load(() => import('../mcp/stdio.js'), args) },
  healthcheck: { usage: () => HEALTHCHECK_USAGE, ownOptions: true, run: (args) => load(() => import('./healthcheck.js'), args) },
};

function usageError(message: string, usage: string): never {
  process.stderr.write(`mail-sandbox: ${message}\n\n${usage}\n`);
  process.exit(EXIT_USAGE);
}

/** --help or --version anywhere before a `--`, for a command that parses the rest itself. */
function askedFor(args: string[]): 'help' | 'version' | null {
  const end = args.indexOf('--');
  for (const arg of end === -1 ? args : args.slice(0, end)) {
    if (arg === '--help' || arg === '-h') return 'help';
    if (arg === '--version' || arg === '-v') return 'version';
  }
  return null;
}

/** The options of a command without options of its own: --help and --version, nothing else. */
function standardOptions(args: string[], usage: string): 'help' | 'version' | null {
  try {
    const { values } = parseArgs({ args, strict: true, allowPositionals: false, options: { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } });
    return values.help ? 'help' : values.version ? 'version' : null;
  } catch (error) {
    return usageError((error as Error).message, usage);
  }
}

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h') return void process.stdout.write(`${OVERVIEW_USAGE}\n`);
  if (first === '--version' || first === '-v') return void process.stdout.write(`${PROJECT_VERSION}\n`);
  // No command, or options straight away, is the default command.
  const [name, args] = first === undefined || first.startsWith('-') ? ['serve', argv] : [first, rest];
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) return usageError(`unknown command '${name}'`, OVERVIEW_USAGE);
  const asked = command.ownOptions ? askedFor(args) : standardOptions(args, command.usage());
  if (asked === 'help') return void process.stdout.write(`${command.usage()}\n`);
  if (asked === 'version') return void process.stdout.write(`${PROJECT_VERSION}\n`);
  await command.run(args);
}

await main(process.argv.slice(2));
