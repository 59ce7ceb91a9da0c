// The CI recipes in docs/ci.md are copied into real pipelines, so they are read as their CI systems would read them:
// each YAML block must parse, GitHub's must be a job with the service on the ports the server listens on by default,
// and every SANDBOX_* variable they set must be one the server declares (src/config-variables.ts).
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { VARIABLES } from '../../src/config-variables.js';
import { PROJECT_ROOT } from '../../src/project-root.js';

const PAGE = path.join(PROJECT_ROOT, 'docs/ci.md');

/** The page's YAML blocks, by the heading they sit under. */
function yamlBlocks(): Map<string, string> {
  const tokens = new MarkdownIt().parse(fs.readFileSync(PAGE, 'utf8'), {});
  const blocks = new Map<string, string>();
  let heading = '';
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open') heading = tokens[index + 1]!.content;
    if (token.type === 'fence' && token.info.trim() === 'yaml') blocks.set(heading, token.content);
  });
  return blocks;
}

interface GithubWorkflow {
  on: unknown;
  jobs: Record<string, { 'runs-on': string; services: Record<string, { image: string; env?: Record<string, string>; ports: string[] }>; env?: Record<string, string>; steps: unknown[] }>;
}

describe('the CI recipes in docs/ci.md', () => {
  const blocks = yamlBlocks();

  it('has a GitHub Actions workflow and a GitLab CI job, each parsing as YAML', () => {
    assert.deepEqual([...blocks.keys()], ['GitHub Actions', 'GitLab CI']);
    for (const [heading, text] of blocks) assert.doesNotThrow(() => parse(text), `${heading}'s block is not YAML`);
  });

  it('runs the service in the GitHub workflow on the HTTP port and the open inbox\'s SMTP port the server defaults to', () => {
    const workflow = parse(blocks.get('GitHub Actions')!) as GithubWorkflow;
    assert.ok(workflow.on, 'the workflow says when it runs');
    const [job] = Object.values(workflow.jobs);
    assert.ok(job && typeof job['runs-on'] === 'string' && Array.isArray(job.steps) && job.steps.length > 0, 'one job with a runner and steps');
    const service = job.services['mail-sandbox'];
    assert.ok(service, 'the job has a mail-sandbox service container');
    assert.match(service.image, /mail-sandbox/);
    const env = service.env ?? {};
    const config = loadConfig({ SANDBOX_DATA_DIR: '/tmp/ci-recipes-unused', ...env });
    assert.ok(config.openInbox, 'the service names an open inbox');
    assert.equal(config.openInbox.bind, '0.0.0.0', 'the open inbox listens where the published port reaches it');
    const published = service.ports.map((mapping) => Number(String(mapping).split(':').at(-1)));
    assert.deepEqual(published.sort(), [config.httpPort, config.openInbox.smtpPort].sort());
    assert.equal(job.env?.SMTP_PORT, String(config.openInbox.smtpPort), 'the application sends to the open inbox\'s port');
  });

  it('sets only variables the server declares', () => {
    const known = new Set(Object.keys(VARIABLES));
    for (const [heading, text] of blocks) {
      for (const name of text.match(/SANDBOX_[A-Z0-9_]+/g) ?? []) assert.ok(known.has(name), `${heading} sets ${name}, which is not a mail-sandbox setting`);
    }
  });
});
