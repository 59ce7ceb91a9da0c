// The words each `mail-sandbox` command prints for --help and after a usage error, written once for the dispatcher
// (src/cli/mail-sandbox.ts) and for the commands' own modules, which also run alone from a clone (npm run admin).
import path from 'node:path';
import { PROJECT_ROOT } from '../project-root.js';
import { configurationHelp } from '../config-help.js';

export const OVERVIEW_USAGE = `usage: mail-sandbox [command] [options]

  serve          run the server (the default command): HTTP API and dashboard, SMTP capture
  admin          workspaces, plans, members, API keys; bulk import (mail-sandbox admin --help)
  import         capture .eml, mbox and Maildir files into an inbox (same as: mail-sandbox admin import)
  reindex        rebuild the message index from the stored raw messages
  mcp            the MCP server over stdio, for agent hosts (MAIL_SANDBOX_URL, MAIL_SANDBOX_KEY)
  healthcheck    ask a running server's /readyz; exit 0 when it is ready

  -h, --help     this text; after a command, that command's usage
  -v, --version  the package's version

Configuration comes from SANDBOX_* environment variables (docs/configuration.md).`;

/**
 * `mail-sandbox serve --help`. The settings are environment variables; this text names where they are described, and
 * is the one place to list them once they are declared in one place.
 */
export function serveHelp(): string {
  return `usage: mail-sandbox [serve] [--help] [--version]

Runs the server: the HTTP API and dashboard (SANDBOX_HTTP_PORT, default 8025), SMTP with STARTTLS
(SANDBOX_SMTP_PORT, 2525) and SMTPS (SANDBOX_SMTPS_PORT, 2465); logs are JSON lines on stdout. SIGTERM or SIGINT
stops it gracefully (exit 0). It runs with glibc's allocator tuned (MALLOC_ARENA_MAX=2, MALLOC_MMAP_THRESHOLD_=131072)
and node --max-semi-space-size=4, unless those are set already.

Configuration comes from the SANDBOX_* environment variables below, described further in docs/configuration.md
(this installation's copy: ${path.join(PROJECT_ROOT, 'docs', 'configuration.md')}).

The data (SQLite database, raw messages, generated certificate) goes to SANDBOX_DATA_DIR, by default ./data in the
current directory. On the first start with an empty data dir the server prints the default workspace's API key once
(log field api_key).

${configurationHelp()}`;
}

export const IMPORT_USAGE = `import --inbox ID [--concurrency N] PATH...    capture .eml files, mbox files and Maildir folders (folders are
                                                 walked recursively) into the inbox, as if they arrived over SMTP:
                                                 quota, size limit, tag rules and webhooks apply. Progress on stderr.`;

export const ADMIN_USAGE = `usage: mail-sandbox admin <command> [options] [--json]
   (in a clone of the project: npm run --silent admin -- <command> [options] [--json])

  workspace create --name NAME [--plan PLAN]     create a workspace and its first read_write key
                                                 (plan defaults to SANDBOX_DEFAULT_PLAN, 'unlimited')
  workspace list                                 list workspaces with their plans
  key create --workspace ID --access read|read_write
  key revoke --id KEY_ID
  plan set --workspace ID --plan PLAN
  plan list                                      the plans and their limits
  member add --workspace ID --email E --role owner|admin|member [--trust-account]
                                                 add a member; says how and when the email's account was made,
                                                 and prints the one-time link that sets their password unless
                                                 they have one already. An account another workspace's
                                                 invitation made, whose password nobody has set since from an
                                                 operator's link, is refused unless --trust-account (you know
                                                 its owner made it)
  member password --email E                      print a one-time link that sets the password of a member of
                                                 any workspace, for SANDBOX_PASSWORD_LINK_TTL_HOURS (default 24);
                                                 the link names SANDBOX_PUBLIC_URL, else this host's HTTP port
  ${IMPORT_USAGE}

Configuration comes from the same SANDBOX_* variables as the server (SANDBOX_DATA_DIR above all).`;

export const IMPORT_COMMAND_USAGE = `usage: mail-sandbox import --inbox ID [--concurrency N] [--json] PATH...

  ${IMPORT_USAGE}

The same as mail-sandbox admin import. Configuration comes from the same SANDBOX_* variables as the server
(SANDBOX_DATA_DIR above all).`;

export const REINDEX_USAGE = `usage: mail-sandbox reindex [--help] [--version]

Rebuilds the message index (the SQLite rows, or the Elasticsearch documents) from the stored raw messages and their
capture envelopes, for whichever profile SANDBOX_* selects; prints a JSON report. Run it with the servers stopped
when an upgrade asks for it.`;

export const MCP_USAGE = `usage: mail-sandbox mcp [--help] [--version]

The MCP server over stdio, for agent hosts that start it as a process. The service and the key come from
MAIL_SANDBOX_URL (e.g. http://127.0.0.1:8025) and MAIL_SANDBOX_KEY (an API key, sbx_api_...). Stdout carries the
protocol alone.`;

export const HEALTHCHECK_USAGE = `usage: mail-sandbox healthcheck [--url http://127.0.0.1:8025]
   (in a clone of the project: npm run --silent healthcheck -- [--url ...])

Asks a running server's /readyz and exits 0 when it is ready, 1 when it is not or does not answer. Without --url the
server is found from the same SANDBOX_* variables it runs with (SANDBOX_HTTP_PORT, SANDBOX_BIND).`;
