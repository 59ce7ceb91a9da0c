// End to end, embedded profile: the package as `npx mail-sandbox` gets it. `npm pack` of the built project, installed
// from the tarball into an empty folder from npm's local cache, then its command run from there: help, version, usage
// errors, and a server that captures a mail over SMTP, serves it over HTTP and stops cleanly. dist/ must be built
// (node scripts/build-if-needed.mjs); pack's prepack only rebuilds what is stale.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_ROOT, PROJECT_VERSION } from '../../src/project-root.js';
import { ApiClient } from '../support/api-client.js';
import { expectOk } from '../support/envelope.js';
import { createInbox } from '../support/inboxes.js';
import { listMessages } from '../support/messages.js';
import { describeEmbedded } from '../support/profile.js';
import { startServer } from '../support/server.js';
import { credentialsOf, sendMails } from '../support/smtp.js';
import { VARIABLES } from '../../src/config-variables.js';

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * This process's environment without what a surrounding `npm run` adds (npm_package_*, npm_lifecycle_*, a prefix that
 * would point npm at the project) and without the suites' SANDBOX_* settings; npm's cache, registry and proxy
 * settings are kept.
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const kept = /^npm_config_(cache|registry|userconfig|globalconfig|nodedir|.*proxy|strict_ssl|cafile)$/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('SANDBOX_') && (!name.startsWith('npm_') || kept.test(name))));
}

/** Every file under `dir`, relative to it, with its size and modification time. */
function snapshot(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .map((entry) => path.join(entry.parentPath, entry.name))
    .map((file) => `${path.relative(dir, file)} ${fs.statSync(file).size} ${fs.statSync(file).mtimeMs}`)
    .sort();
}

describeEmbedded('npx mail-sandbox (the packed package, installed from its tarball)', function () {
  this.timeout(300_000);
  const env = cleanEnv();
  let work: string;
  let installDir: string;
  /** Where the commands run: a folder of its own inside the install, as `npx mail-sandbox` runs in any folder. */
  let runDir: string;
  let packageDir: string;
  let packedFiles: string[];
  const npx = (...args: string[]) => run('npx', ['--no-install', 'mail-sandbox', ...args], runDir, env);

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'mail-sandbox-npx-'));
    installDir = path.join(work, 'install');
    runDir = path.join(installDir, 'somewhere');
    packageDir = path.join(installDir, 'node_modules', 'mail-sandbox');
    fs.mkdirSync(runDir, { recursive: true });
    let started = performance.now();
    const packed = await run('npm', ['pack', '--json', '--pack-destination', work], PROJECT_ROOT, env);
    assert.equal(packed.status, 0, packed.stderr);
    const [tarball] = JSON.parse(packed.stdout) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[];
    packedFiles = tarball!.files.map((file) => file.path);
    console.log(`      packed ${tarball!.filename} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${(tarball!.size / 1024).toFixed(0)} kB, `
      + `${(tarball!.unpackedSize / 1024 / 1024).toFixed(1)} MB unpacked, ${packedFiles.length} files`);

    // better-sqlite3's install script fetches a prebuilt addon from GitHub, else compiles one (a minute and more on two
    // cores). The machine may not reach GitHub; the addon this checkout already has stands in for that download,
    // found by prebuild-install in a local folder. Should its version not be the one npm picks, it compiles instead,
    // against this Node's headers (npm_config_nodedir, as .ci/run does) so that nothing is downloaded.
    const prebuilds = path.join(work, 'prebuilds');
    fs.mkdirSync(prebuilds);
    const sqlite = path.join(PROJECT_ROOT, 'node_modules', 'better-sqlite3');
    const { version } = JSON.parse(fs.readFileSync(path.join(sqlite, 'package.json'), 'utf8')) as { version: string };
    const prebuilt = path.join(prebuilds, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
    const tar = await run('tar', ['-czf', prebuilt, '-C', sqlite, 'build/Release/better_sqlite3.node'], work, env);
    assert.equal(tar.status, 0, tar.stderr);

    fs.writeFileSync(path.join(installDir, 'package.json'), JSON.stringify({ name: 'npx-package-test', private: true, allowScripts: { 'better-sqlite3': true } }));
    started = performance.now();
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(work, tarball!.filename)], installDir, {
      ...env,
      npm_config_better_sqlite3_local_prebuilds: prebuilds,
      ...(env.npm_config_nodedir === undefined && fs.existsSync('/usr/include/node/node.h') ? { npm_config_nodedir: '/usr' } : {}),
    });
    assert.equal(installed.status, 0, `${installed.stdout}\n${installed.stderr}`);
    const compiled = fs.existsSync(path.join(installDir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'obj'));
    console.log(`      installed in ${((performance.now() - started) / 1000).toFixed(1)} s (${installed.stdout.trim().split('\n').at(-1)}; `
      + `better-sqlite3 ${compiled ? 'compiled' : 'from the prebuilt addon'})`);
  });

  after(() => {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('ships the built server, the dashboard and what the server reads at run time, and no sources or tests', () => {
    for (const file of ['dist/src/cli/mail-sandbox.js', 'dist/src/main.js', 'dist/src/mime/vendor/caniemail.json', 'dist/dashboard/index.html', 'openapi.yaml',
      'mailpit-api.yaml', 'search-mappings/messages.template.json', 'docs/configuration.md', 'dist/src/client/index.d.ts']) {
      assert.ok(packedFiles.includes(file), `${file} is not in the package`);
    }
    const strays = packedFiles.filter((file) => file.endsWith('.map') || file.endsWith('.ts') && !file.endsWith('.d.ts') || /^(src|test|scripts)\//.test(file));
    assert.deepEqual(strays, []);
  });

  it('prints the commands on --help and the package version on --version, for the program and each command', async () => {
    const commands = ['serve', 'admin', 'import', 'reindex', 'mcp', 'healthcheck'];
    // Side by side: each npx start costs about a second of npm's own.
    const [help, version, ...versions] = await Promise.all([npx('--help'), npx('--version'), ...commands.map((command) => npx(command, '--version'))]);
    assert.equal(help!.status, 0, help!.stderr);
    for (const command of commands) assert.match(help!.stdout, new RegExp(`^ {2}${command} `, 'm'));
    console.log(`      npx mail-sandbox --help:\n${help!.stdout.replace(/^/gm, '        | ')}`);
    assert.deepEqual([version!.status, version!.stdout], [0, `${PROJECT_VERSION}\n`]);
    versions.forEach((ran, index) => assert.deepEqual([ran.status, ran.stdout], [0, `${PROJECT_VERSION}\n`], `${commands[index]} --version: ${ran.stderr}`));
  });

  it('prints each command\'s usage on its --help; serve\'s lists every SANDBOX_* variable and names the installed docs/configuration.md', async () => {
    const [admin, serve] = await Promise.all([npx('admin', '--help'), npx('serve', '--help')]);
    assert.equal(admin.status, 0, admin.stderr);
    assert.match(admin.stdout, /^usage: mail-sandbox admin <command>/);
    assert.match(admin.stdout, /workspace create --name NAME/);
    assert.equal(serve.status, 0, serve.stderr);
    assert.match(serve.stdout, /SANDBOX_\* environment variables/);
    const docs = path.join(packageDir, 'docs', 'configuration.md');
    assert.ok(serve.stdout.includes(docs), serve.stdout);
    assert.ok(fs.existsSync(docs));
    const unlisted = Object.keys(VARIABLES).filter((name) => !serve.stdout.includes(`  ${name}=`));
    assert.deepEqual(unlisted, [], 'serve --help lists every variable of the configuration\'s declaration');
    console.log(`      npx mail-sandbox serve --help (first lines):\n${serve.stdout.split('\n').slice(0, 14).join('\n').replace(/^/gm, '        | ')}`);
  });

  it('refuses an unknown command or option with the usage and exit status 2', async () => {
    const [command, option, adminOption] = await Promise.all([npx('frobnicate'), npx('serve', '--port', '25'), npx('admin', 'workspace', 'list', '--frob')]);
    assert.equal(command.status, 2);
    assert.match(command.stderr, /unknown command 'frobnicate'/);
    assert.match(command.stderr, /usage: mail-sandbox \[command\]/);
    assert.equal(option.status, 2);
    assert.match(option.stderr, /Unknown option '--port'[\s\S]*usage: mail-sandbox \[serve\]/);
    assert.equal(adminOption.status, 2);
    assert.match(adminOption.stderr, /Unknown option '--frob'[\s\S]*usage: mail-sandbox admin/);
  });

  it('serves: captures a mail over SMTP, serves it over HTTP with the printed key, and stops on SIGTERM', async () => {
    const dataDir = path.join(work, 'data-dir');
    const server = await startServer({ command: ['npx', '--no-install', 'mail-sandbox', 'serve'], cwd: runDir, baseEnv: env, dataDir, processGroup: true });
    try {
      assert.ok(server.defaultKey, 'the first start prints the default workspace\'s key');
      assert.equal(server.logs.find((entry) => entry.data_dir !== undefined)?.data_dir, dataDir);
      const api = new ApiClient(server.httpUrl, server.defaultKey);
      const inbox = await createInbox(api);
      const [id] = await sendMails(credentialsOf(inbox), [{ from: 'app@example.com', to: 'user@example.com', subject: 'Sent to the npx install', text: 'hello' }]);
      const message = expectOk<{ id: string; subject: string }>(await api.get(`/v1/messages/${id}`));
      assert.equal(message.subject, 'Sent to the npx install');
      assert.deepEqual((await listMessages(api, inbox.id)).map((each) => each.id), [id]);
    } finally {
      // npm dies of the signal itself (status null); the server's own graceful stop is what its log says.
      await server.stop('SIGTERM');
    }
    assert.equal(server.logs.at(-1)?.msg, 'stopped');
  });

  it('keeps its data in ./data of the folder it runs in, writes nothing into the installed package, and exits 0 on SIGTERM', async () => {
    const before = snapshot(packageDir);
    // The file npx runs, started alone, so that its own exit status is the one read.
    const server = await startServer({
      command: [path.join(installDir, 'node_modules', '.bin', 'mail-sandbox')],
      cwd: runDir,
      baseEnv: env,
      dataDir: path.join(runDir, 'data'),
      env: { SANDBOX_DATA_DIR: '' },
    });
    let status: number | null;
    try {
      assert.equal(server.logs.find((entry) => entry.data_dir !== undefined)?.data_dir, path.join(runDir, 'data'));
      assert.ok(fs.existsSync(path.join(runDir, 'data')));
    } finally {
      status = await server.stop('SIGTERM');
    }
    assert.equal(status, 0);
    assert.deepEqual(snapshot(packageDir), before);
  });
});
