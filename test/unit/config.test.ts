// Configuration parsing: defaults, sizes, ports, plans, and one clear error naming the variable.
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { ConfigError, DEFAULT_PLANS, isLoopbackBind, linkBaseUrl, loadConfig, perNodeCaps, perNodeShare } from '../../src/config.js';

describe('loadConfig', () => {
  it('has documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.profile, 'embedded');
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.httpPort, 8025);
    assert.equal(config.smtpPort, 2525);
    assert.equal(config.smtpsPort, 2465);
    assert.equal(config.bind, '127.0.0.1');
    assert.equal(config.maxMessageBytes, 25 * 1024 * 1024);
    assert.equal(config.defaultPlan, 'unlimited');
    assert.deepEqual(config.plans, DEFAULT_PLANS);
    assert.equal(config.streamHeartbeatSeconds, 15);
    assert.equal(config.streamMaxSeconds, 1800);
    assert.equal(config.streamResumeLimit, 10_000);
    assert.equal(config.webhookTimeScale, 1);
    assert.equal(config.webhookAllowPrivate, false);
    assert.equal(config.linkCheckAllowPrivate, false);
    assert.equal(loadConfig({ SANDBOX_LINK_CHECK_ALLOW_PRIVATE: '1' }).linkCheckAllowPrivate, true);
    assert.equal(loadConfig({ SANDBOX_WEBHOOK_TIME_SCALE: '0.01', SANDBOX_WEBHOOK_ALLOW_PRIVATE: '1' }).webhookTimeScale, 0.01);
    assert.equal(config.metricsToken, null);
    assert.equal(config.metricsPort, null);
    assert.deepEqual(
      (({ metricsToken, metricsPort }) => ({ metricsToken, metricsPort }))(loadConfig({ SANDBOX_METRICS_TOKEN: 'a-long-enough-token', SANDBOX_METRICS_PORT: '9464' })),
      { metricsToken: 'a-long-enough-token', metricsPort: 9464 },
    );
    assert.ok(Object.isFrozen(config));
  });

  it('reads the webhook delivery caps and breaker settings, with their defaults', () => {
    const pick = ({ webhookConcurrency, webhookConcurrencyPerWorkspace, webhookConcurrencyPerHost, webhookBreakerFailures, webhookBreakerCoolOffSeconds }: ReturnType<typeof loadConfig>) =>
      ({ webhookConcurrency, webhookConcurrencyPerWorkspace, webhookConcurrencyPerHost, webhookBreakerFailures, webhookBreakerCoolOffSeconds });
    assert.deepEqual(pick(loadConfig({})), {
      webhookConcurrency: 16, webhookConcurrencyPerWorkspace: 4, webhookConcurrencyPerHost: 4, webhookBreakerFailures: 5, webhookBreakerCoolOffSeconds: 60,
    });
    assert.deepEqual(pick(loadConfig({
      SANDBOX_WEBHOOK_CONCURRENCY: '32', SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE: '2', SANDBOX_WEBHOOK_CONCURRENCY_PER_HOST: '8',
      SANDBOX_WEBHOOK_BREAKER_FAILURES: '3', SANDBOX_WEBHOOK_BREAKER_COOL_OFF_SECONDS: '300',
    })), { webhookConcurrency: 32, webhookConcurrencyPerWorkspace: 2, webhookConcurrencyPerHost: 8, webhookBreakerFailures: 3, webhookBreakerCoolOffSeconds: 300 });
  });

  it('accepts port 0 and 1024-based sizes', () => {
    const config = loadConfig({ SANDBOX_HTTP_PORT: '0', SANDBOX_MAX_MESSAGE_BYTES: '1.5m' });
    assert.equal(config.httpPort, 0);
    assert.equal(config.maxMessageBytes, 1.5 * 1024 * 1024);
    assert.equal(loadConfig({ SANDBOX_MAX_MESSAGE_BYTES: '2048' }).maxMessageBytes, 2048);
    assert.equal(loadConfig({ SANDBOX_MAX_MESSAGE_BYTES: '10KB' }).maxMessageBytes, 10 * 1024);
  });

  const bad: [string, string][] = [
    ['SANDBOX_HTTP_PORT', '70000'],
    ['SANDBOX_SMTP_PORT', 'abc'],
    ['SANDBOX_SMTPS_PORT', '-1'],
    ['SANDBOX_PROFILE', 'galaxy'],
    ['SANDBOX_MAX_MESSAGE_BYTES', 'huge'],
    ['SANDBOX_MAX_MESSAGE_BYTES', '10'],
    ['SANDBOX_NAMESPACE', 'Has Spaces'],
    ['SANDBOX_PLANS', '{not json'],
    ['SANDBOX_PLANS', '{"free":{"monthly_limit":-1}}'],
    ['SANDBOX_PLANS', '{"free":{"colour":1}}'],
    ['SANDBOX_DEFAULT_PLAN', 'platinum'],
    ['SANDBOX_DEFAULT_PLAN', 'toString'],
    ['SANDBOX_PLANS', '{"slow":{"requests_per_second":0}}'],
    ['SANDBOX_LOG_LEVEL', 'loud'],
    ['SANDBOX_TLS_CERT', '/tmp/cert.pem'],
    ['SANDBOX_STREAM_HEARTBEAT_SECONDS', '0'],
    ['SANDBOX_STREAM_MAX_SECONDS', 'forever'],
    ['SANDBOX_STREAM_RESUME_LIMIT', '-5'],
    ['SANDBOX_WEBHOOK_TIME_SCALE', '0'],
    ['SANDBOX_WEBHOOK_TIME_SCALE', 'fast'],
    ['SANDBOX_WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['SANDBOX_WEBHOOK_CONCURRENCY', '0'],
    ['SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE', 'all'],
    ['SANDBOX_WEBHOOK_CONCURRENCY_PER_HOST', '-1'],
    ['SANDBOX_WEBHOOK_BREAKER_FAILURES', '0'],
    ['SANDBOX_WEBHOOK_BREAKER_COOL_OFF_SECONDS', '1.5'],
    ['SANDBOX_LINK_CHECK_ALLOW_PRIVATE', 'true'],
    ['SANDBOX_METRICS_TOKEN', 'short'],
    ['SANDBOX_METRICS_TOKEN', 'has a space in the middle of it'],
    ['SANDBOX_METRICS_PORT', '70000'],
    ['SANDBOX_SPAMD_URL', 'localhost'],
    ['SANDBOX_SPAMD_URL', '127.0.0.1:0'],
    ['SANDBOX_SPAMD_URL', '127.0.0.1:65536'],
    ['SANDBOX_SPAMD_URL', 'tcp://127.0.0.1:783'],
    ['SANDBOX_SPAMD_URL', '::1:783'],
    ['SANDBOX_SPAMD_URL', 'run/spamd.sock'],
    ['SANDBOX_SPAMD_URL', `/${'long-directory-name/'.repeat(6)}spamd.sock`],
    ['SANDBOX_SPAMD_TIMEOUT_MS', '0'],
    ['SANDBOX_SPAMD_MAX_BYTES', 'all'],
    ['SANDBOX_TRUST_PROXY', 'yes'],
    ['SANDBOX_TRUST_PROXY_HOPS', '2'],
    ['SANDBOX_SMTP_REQUIRE_TLS', 'true'],
    ['SANDBOX_ALLOWED_HOSTS', 'sandbox.internal:8025'],
    ['SANDBOX_ALLOWED_HOSTS', 'http://sandbox.internal'],
    ['SANDBOX_ALLOWED_HOSTS', 'a b'],
    ['SANDBOX_ALLOWED_HOSTS', '*'],
    ['SANDBOX_QUERY_THREADS', '0'],
    ['SANDBOX_THREAD_IDLE_MS', '0'],
    ['SANDBOX_QUERY_TIMEOUT_MS', 'long'],
    ['SANDBOX_QUERY_QUEUE_PER_WORKSPACE', '-1'],
    ['SANDBOX_SCAN_ROWS_PER_PAGE', '0'],
    ['SANDBOX_BATCH_CHUNK_SIZE', '1.5'],
    ['SANDBOX_WAITS_PER_WORKSPACE', '0'],
    ['SANDBOX_STREAMS_PER_WORKSPACE', 'many'],
    ['SANDBOX_TAG_RULE_BUDGET_MS', '0'],
    ['SANDBOX_PLANS', '{"free":{"tag_rule_limit":null}}'],
    ['SANDBOX_SMTP_MAX_CONNECTIONS', '0'],
    ['SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS', 'many'],
    ['SANDBOX_MAX_TRANSACTIONS', '-1'],
    ['SANDBOX_SPOOL_THRESHOLD', '1x'],
    ['SANDBOX_DATA_RATE_PER_WORKSPACE', 'fast'],
  ];
  for (const [variable, value] of bad) {
    it(`refuses ${variable}=${value} naming the variable`, () => {
      assert.throws(() => loadConfig({ [variable]: value }), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /^SANDBOX_[A-Z_]+: /);
        return true;
      });
    });
  }

  it('lets SANDBOX_PLANS change a plan and add one', () => {
    const config = loadConfig({ SANDBOX_PLANS: '{"free":{"monthly_limit":10},"tiny":{"inbox_limit":1,"requests_per_second":null}}' });
    assert.equal(config.plans.free!.monthlyLimit, 10);
    assert.equal(config.plans.free!.inboxLimit, DEFAULT_PLANS.free!.inboxLimit);
    assert.equal(config.plans.tiny!.inboxLimit, 1);
    assert.equal(config.plans.tiny!.requestsPerSecond, null);
    assert.equal(config.plans.tiny!.name, 'tiny');
  });

  it('reads where spamd listens: host:port, [IPv6]:port or a unix socket path; none by default', () => {
    const config = loadConfig({});
    assert.equal(config.spamd, null);
    assert.equal(config.spamdTimeoutMs, 10_000);
    assert.equal(config.spamdMaxBytes, 10 * 1024 * 1024);
    assert.deepEqual(loadConfig({ SANDBOX_SPAMD_URL: '127.0.0.1:7830' }).spamd, { host: '127.0.0.1', port: 7830 });
    assert.deepEqual(loadConfig({ SANDBOX_SPAMD_URL: 'spamd.internal:783' }).spamd, { host: 'spamd.internal', port: 783 });
    assert.deepEqual(loadConfig({ SANDBOX_SPAMD_URL: '[::1]:783' }).spamd, { host: '::1', port: 783 });
    assert.deepEqual(loadConfig({ SANDBOX_SPAMD_URL: '/run/spamd/spamd.sock' }).spamd, { path: '/run/spamd/spamd.sock' });
    const bounded = loadConfig({ SANDBOX_SPAMD_TIMEOUT_MS: '2500', SANDBOX_SPAMD_MAX_BYTES: '512k' });
    assert.deepEqual([bounded.spamdTimeoutMs, bounded.spamdMaxBytes], [2500, 512 * 1024]);
  });

  it('reads the outbound name lookup settings and the ports links are checked on', () => {
    const config = loadConfig({});
    assert.deepEqual(
      [config.dnsServers, config.dnsTimeoutMs, config.dnsTries, config.dnsLookups, config.dnsLookupQueue, config.dnsLookupsPerWorkspace],
      [[], 2000, 2, 64, 256, 16],
    );
    assert.deepEqual(config.linkCheckPorts, [[80, 80], [443, 443], [8000, 8999]]);
    assert.deepEqual(loadConfig({ SANDBOX_DNS_SERVERS: '127.0.0.1:5353, 9.9.9.9,[::1]:53,2620:fe::fe' }).dnsServers, ['127.0.0.1:5353', '9.9.9.9', '[::1]:53', '2620:fe::fe']);
    assert.deepEqual(loadConfig({ SANDBOX_LINK_CHECK_PORTS: '443, 8080-8090' }).linkCheckPorts, [[443, 443], [8080, 8090]]);
    const sized = loadConfig({ SANDBOX_DNS_TIMEOUT_MS: '500', SANDBOX_DNS_TRIES: '3', SANDBOX_DNS_LOOKUPS: '8', SANDBOX_DNS_LOOKUP_QUEUE: '20', SANDBOX_DNS_LOOKUPS_PER_WORKSPACE: '4' });
    assert.deepEqual([sized.dnsTimeoutMs, sized.dnsTries, sized.dnsLookups, sized.dnsLookupQueue, sized.dnsLookupsPerWorkspace], [500, 3, 8, 20, 4]);
    for (const [variable, value] of [
      ['SANDBOX_DNS_SERVERS', 'dns.example.com'], ['SANDBOX_DNS_SERVERS', '127.0.0.1:0'], ['SANDBOX_DNS_SERVERS', '127.1'], ['SANDBOX_DNS_SERVERS', '[::1]'],
      ['SANDBOX_DNS_TIMEOUT_MS', '0'], ['SANDBOX_DNS_TRIES', 'many'], ['SANDBOX_DNS_LOOKUPS', '-1'], ['SANDBOX_DNS_LOOKUP_QUEUE', '1.5'],
      ['SANDBOX_DNS_LOOKUPS_PER_WORKSPACE', '0'], ['SANDBOX_LINK_CHECK_PORTS', '0'], ['SANDBOX_LINK_CHECK_PORTS', '8999-8000'], ['SANDBOX_LINK_CHECK_PORTS', '80,https'],
      ['SANDBOX_LINK_CHECK_PORTS', '70000'],
    ]) {
      assert.throws(() => loadConfig({ [variable!]: value }), (error: unknown) => error instanceof ConfigError && error.message.startsWith(`${variable}: `), `${variable}=${value}`);
    }
  });

  it('puts the SMTP host name on the bind address unless told otherwise', () => {
    assert.equal(loadConfig({ SANDBOX_BIND: '0.0.0.0' }).smtpHostname, 'localhost');
    assert.equal(loadConfig({ SANDBOX_BIND: '127.0.0.2' }).smtpHostname, '127.0.0.2');
    assert.equal(loadConfig({ SANDBOX_SMTP_HOSTNAME: 'mail.test' }).smtpHostname, 'mail.test');
  });

  it('reads the dashboard settings and normalises the base path', () => {
    const config = loadConfig({});
    assert.deepEqual(
      [config.basePath, config.sessionIdleMinutes, config.sessionMaxHours, config.invitationTtlHours, config.passwordLinkTtlHours, config.ownerEmail],
      ['', 720, 168, 72, 24, 'owner@localhost'],
    );
    for (const raw of ['/mail', 'mail', '/mail/', 'mail//']) assert.equal(loadConfig({ SANDBOX_BASE_PATH: raw }).basePath, '/mail');
    assert.equal(loadConfig({ SANDBOX_BASE_PATH: '/' }).basePath, '');
    assert.equal(loadConfig({ SANDBOX_BASE_PATH: '/a/b' }).basePath, '/a/b');
    for (const raw of ['/a b', '/../x', '/a?b', '/a#b']) assert.throws(() => loadConfig({ SANDBOX_BASE_PATH: raw }), /SANDBOX_BASE_PATH/);
    assert.throws(() => loadConfig({ SANDBOX_OWNER_EMAIL: 'nobody' }), /SANDBOX_OWNER_EMAIL/);
    assert.throws(() => loadConfig({ SANDBOX_SESSION_IDLE_MINUTES: '0' }), /SANDBOX_SESSION_IDLE_MINUTES/);
  });

  it('builds absolute links from SANDBOX_PUBLIC_URL and the base path, or the bound address', () => {
    const at = (env: Record<string, string>) => linkBaseUrl(loadConfig(env), 8025);
    assert.equal(at({}), 'http://127.0.0.1:8025');
    assert.equal(at({ SANDBOX_BIND: '0.0.0.0', SANDBOX_BASE_PATH: '/mail' }), 'http://127.0.0.1:8025/mail');
    assert.equal(at({ SANDBOX_BIND: '::1' }), 'http://[::1]:8025');
    assert.equal(at({ SANDBOX_PUBLIC_URL: 'https://sandbox.example.com', SANDBOX_BASE_PATH: '/mail' }), 'https://sandbox.example.com/mail');
    assert.equal(at({ SANDBOX_PUBLIC_URL: 'https://example.com/mail/', SANDBOX_BASE_PATH: '/mail' }), 'https://example.com/mail');
  });

  it('reads the proxy, Host and SMTP TLS settings with safe defaults', () => {
    const config = loadConfig({});
    assert.deepEqual(
      [config.trustProxy, config.trustProxyHops, config.allowedHosts, config.smtpRequireTls],
      [false, 1, [], false],
    );
    assert.equal(loadConfig({ SANDBOX_SMTP_REQUIRE_TLS: '1' }).smtpRequireTls, true);
    assert.deepEqual(loadConfig({ SANDBOX_ALLOWED_HOSTS: ' Sandbox.Internal, *.example.com ,[::1],10.0.0.5' }).allowedHosts, ['sandbox.internal', '*.example.com', '::1', '10.0.0.5']);
    assert.deepEqual(loadConfig({ SANDBOX_ALLOWED_HOSTS: '' }).allowedHosts, []);
  });

  it('reads the connection and transfer caps, with defaults that keep a per-address cap within its overall one', () => {
    const { connections, captures } = loadConfig({});
    assert.deepEqual(connections, {
      smtpMax: 1000, smtpPerAddress: 100, smtpMaxUnauthenticated: 750, smtpUnauthenticatedPerAddress: 100, smtpAuthTimeoutMs: 15_000,
      httpMax: 2000, httpPerAddress: 256, httpMaxUnauthenticated: 1500, httpUnauthenticatedPerAddress: 256,
      httpHeadersTimeoutMs: 20_000, httpRequestTimeoutMs: 120_000, ipv6PrefixBits: 64,
    });
    assert.deepEqual(captures, {
      transactions: 256, transactionsPerWorkspace: 64,
      bufferedBytes: 256 * 1024 * 1024, bufferedBytesPerWorkspace: 64 * 1024 * 1024, spoolThresholdBytes: 1024 * 1024,
      dataBytesPerSecondPerWorkspace: 16 * 1024 * 1024,
    });
    assert.equal(loadConfig({ SANDBOX_DATA_RATE_PER_WORKSPACE: '2m' }).captures.dataBytesPerSecondPerWorkspace, 2 * 1024 * 1024);
    const refusal = (env: Record<string, string>, named: RegExp) => assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && named.test(error.message));
    refusal({ SANDBOX_SMTP_MAX_CONNECTIONS: '10', SANDBOX_SMTP_MAX_CONNECTIONS_PER_ADDRESS: '11' }, /^SANDBOX_SMTP_MAX_CONNECTIONS_PER_ADDRESS: 11 is more than/);
    refusal({ SANDBOX_HTTP_MAX_CONNECTIONS: '10' }, /^SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS: 256 is more than/);
    refusal({ SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS: '200' }, /^SANDBOX_HTTP_HEADERS_TIMEOUT_SECONDS: must not be longer/);
    refusal({ SANDBOX_MAX_TRANSACTIONS: '10' }, /^SANDBOX_TRANSACTIONS_PER_WORKSPACE: 64 is more than/);
    refusal({ SANDBOX_BUFFERED_PER_WORKSPACE: '1g', SANDBOX_MAX_BUFFERED: '512m' }, /^SANDBOX_BUFFERED_PER_WORKSPACE: must not be more than SANDBOX_MAX_BUFFERED/);
    refusal({ SANDBOX_BUFFERED_PER_WORKSPACE: '30m' }, /^SANDBOX_BUFFERED_PER_WORKSPACE: must be at least the largest \/send body/);
    // Left to their defaults, the byte caps grow with a larger message size.
    const large = loadConfig({ SANDBOX_MAX_MESSAGE_BYTES: '100m' }).captures;
    assert.deepEqual([large.bufferedBytesPerWorkspace, large.bufferedBytes], [Math.ceil((100 * 1024 * 1024 * 4) / 3) + 1024 * 1024, 256 * 1024 * 1024]);
  });

  it('keeps part of each connection cap for authenticated clients, and each address\'s unauthenticated share within it', () => {
    const pick = ({ connections: c }: ReturnType<typeof loadConfig>) => [c.smtpMaxUnauthenticated, c.smtpUnauthenticatedPerAddress, c.httpMaxUnauthenticated, c.httpUnauthenticatedPerAddress];
    // Unset, they follow the caps they are part of: three quarters of the overall cap, never past the per-address one.
    assert.deepEqual(pick(loadConfig({ SANDBOX_SMTP_MAX_CONNECTIONS: '8', SANDBOX_SMTP_MAX_CONNECTIONS_PER_ADDRESS: '3', SANDBOX_HTTP_MAX_CONNECTIONS: '40', SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS: '40' })), [6, 3, 30, 30]);
    assert.deepEqual(pick(loadConfig({
      SANDBOX_SMTP_MAX_UNAUTHENTICATED: '100', SANDBOX_SMTP_MAX_UNAUTHENTICATED_PER_ADDRESS: '5',
      SANDBOX_HTTP_MAX_UNAUTHENTICATED: '200', SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS: '10',
    })), [100, 5, 200, 10]);
    const refusal = (env: Record<string, string>, named: RegExp) => assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && named.test(error.message));
    refusal({ SANDBOX_SMTP_MAX_UNAUTHENTICATED: '1001' }, /^SANDBOX_SMTP_MAX_UNAUTHENTICATED: 1001 is more than SANDBOX_SMTP_MAX_CONNECTIONS \(1000\)/);
    refusal({ SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS: '257' }, /^SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS: 257 is more than SANDBOX_HTTP_MAX_CONNECTIONS_PER_ADDRESS \(256\)/);
    refusal({ SANDBOX_HTTP_MAX_UNAUTHENTICATED: '10', SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS: '11' }, /^SANDBOX_HTTP_MAX_UNAUTHENTICATED_PER_ADDRESS: 11 is more than SANDBOX_HTTP_MAX_UNAUTHENTICATED \(10\)/);
    refusal({ SANDBOX_SMTP_MAX_UNAUTHENTICATED: '0' }, /^SANDBOX_SMTP_MAX_UNAUTHENTICATED: expected a positive whole number/);
    assert.equal(loadConfig({ SANDBOX_IPV6_PREFIX_BITS: '56' }).connections.ipv6PrefixBits, 56);
    for (const bits of ['0', '15', '129', '64.5', 'wide']) refusal({ SANDBOX_IPV6_PREFIX_BITS: bits }, /^SANDBOX_IPV6_PREFIX_BITS: expected a prefix length 16-128/);
  });

  it('divides each cap a node counts on its own among SANDBOX_CLUSTER_NODES, rounded up and at least 1', () => {
    const cluster = { SANDBOX_PROFILE: 'cluster' };
    const one = loadConfig(cluster);
    assert.equal(one.clusterNodes, 1);
    const four = loadConfig({ ...cluster, SANDBOX_CLUSTER_NODES: '4', SANDBOX_QUERY_THREADS: '9' });
    assert.equal(four.clusterNodes, 4);
    assert.deepEqual(perNodeCaps(one), {
      SANDBOX_WAITS_PER_WORKSPACE: 64, SANDBOX_STREAMS_PER_WORKSPACE: 32, SANDBOX_CONTENT_READS_PER_WORKSPACE: 16, SANDBOX_FILE_SERVES_PER_WORKSPACE: 4,
      SANDBOX_QUERY_QUEUE_PER_WORKSPACE: 100, 'SANDBOX_QUERY_THREADS less one': 1, SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE: 4,
      SANDBOX_WEBHOOK_CONCURRENCY_PER_HOST: 4, SANDBOX_DNS_LOOKUPS_PER_WORKSPACE: 16, SANDBOX_MCP_CALLS_PER_WORKSPACE: 16,
      SANDBOX_TRANSACTIONS_PER_WORKSPACE: 64, SANDBOX_BUFFERED_PER_WORKSPACE: 64 * 1024 * 1024, SANDBOX_DATA_RATE_PER_WORKSPACE: 16 * 1024 * 1024,
    });
    // Each node's share: the cluster as a whole allows what was set (a quarter of 64 waits on each of 4 nodes, and so on).
    assert.deepEqual(perNodeCaps(four), {
      SANDBOX_WAITS_PER_WORKSPACE: 16, SANDBOX_STREAMS_PER_WORKSPACE: 8, SANDBOX_CONTENT_READS_PER_WORKSPACE: 4, SANDBOX_FILE_SERVES_PER_WORKSPACE: 1,
      SANDBOX_QUERY_QUEUE_PER_WORKSPACE: 25, 'SANDBOX_QUERY_THREADS less one': 2, SANDBOX_WEBHOOK_CONCURRENCY_PER_WORKSPACE: 1,
      SANDBOX_WEBHOOK_CONCURRENCY_PER_HOST: 1, SANDBOX_DNS_LOOKUPS_PER_WORKSPACE: 4, SANDBOX_MCP_CALLS_PER_WORKSPACE: 4,
      // A workspace's bytes stay at least the largest /send body (25 MiB messages: 4/3 of it and 1 MiB).
      SANDBOX_TRANSACTIONS_PER_WORKSPACE: 16, SANDBOX_BUFFERED_PER_WORKSPACE: Math.ceil((25 * 1024 * 1024 * 4) / 3) + 1024 * 1024, SANDBOX_DATA_RATE_PER_WORKSPACE: 4 * 1024 * 1024,
    });
    assert.equal(four.waitsPerWorkspace, 16, 'the fields the services are built from hold the share');
    assert.equal(four.captures.transactionsPerWorkspace, 16);
    // Rounded up, and never below 1, however many nodes.
    const many = loadConfig({ ...cluster, SANDBOX_CLUSTER_NODES: '3', SANDBOX_WAITS_PER_WORKSPACE: '10', SANDBOX_FILE_SERVES_PER_WORKSPACE: '2' });
    assert.deepEqual([many.waitsPerWorkspace, many.fileServesPerWorkspace], [4, 1]);
    assert.equal(perNodeShare(1, 50), 1);
    // The overall caps each node keeps of its own resources are not divided.
    assert.deepEqual([four.captures.transactions, four.connections.httpMax, four.webhookConcurrency], [256, 2000, 16]);
    assert.throws(() => loadConfig({ SANDBOX_CLUSTER_NODES: '2' }), /^ConfigError: SANDBOX_CLUSTER_NODES: only means something with SANDBOX_PROFILE=cluster/);
    assert.throws(() => loadConfig({ ...cluster, SANDBOX_CLUSTER_NODES: '0' }), /^ConfigError: SANDBOX_CLUSTER_NODES: expected a positive whole number/);
  });

  it('takes a trusted proxy\'s hops and needs SANDBOX_PUBLIC_URL with it', () => {
    const proxied = { SANDBOX_TRUST_PROXY: '1', SANDBOX_PUBLIC_URL: 'https://sandbox.example.com' };
    assert.deepEqual((({ trustProxy, trustProxyHops }) => [trustProxy, trustProxyHops])(loadConfig(proxied)), [true, 1]);
    assert.equal(loadConfig({ ...proxied, SANDBOX_TRUST_PROXY_HOPS: '2' }).trustProxyHops, 2);
    for (const hops of ['0', '-1', '1.5', '11', 'two']) {
      assert.throws(() => loadConfig({ ...proxied, SANDBOX_TRUST_PROXY_HOPS: hops }), /^ConfigError: SANDBOX_TRUST_PROXY_HOPS: expected a whole number 1-10/);
    }
    assert.throws(() => loadConfig({ SANDBOX_TRUST_PROXY_HOPS: '2' }), /SANDBOX_TRUST_PROXY_HOPS: only means something with SANDBOX_TRUST_PROXY=1/);
    assert.throws(() => loadConfig({ SANDBOX_TRUST_PROXY: '1' }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /^SANDBOX_PUBLIC_URL: is required with SANDBOX_TRUST_PROXY=1/);
      return true;
    });
  });

  it('bounds query work per workspace by default and takes other bounds', () => {
    const defaults = loadConfig({});
    assert.deepEqual([defaults.queryThreads, defaults.queryTimeoutMs, defaults.queryQueuePerWorkspace, defaults.scanRowsPerPage, defaults.batchChunkSize,
      defaults.waitsPerWorkspace, defaults.streamsPerWorkspace, defaults.tagRuleBudgetMs], [2, 2000, 100, 5000, 250, 64, 32, 500]);
    assert.deepEqual(Object.values(defaults.plans).map((plan) => plan.tagRuleLimit), [10, 100, 500]);
    assert.equal(loadConfig({ SANDBOX_PLANS: '{"ci":{"tag_rule_limit":3}}' }).plans.ci!.tagRuleLimit, 3);
    const set = loadConfig({
      SANDBOX_QUERY_THREADS: '4', SANDBOX_QUERY_TIMEOUT_MS: '500', SANDBOX_QUERY_QUEUE_PER_WORKSPACE: '3', SANDBOX_SCAN_ROWS_PER_PAGE: '100',
      SANDBOX_BATCH_CHUNK_SIZE: '50', SANDBOX_WAITS_PER_WORKSPACE: '5', SANDBOX_STREAMS_PER_WORKSPACE: '6',
    });
    assert.deepEqual([set.queryThreads, set.queryTimeoutMs, set.queryQueuePerWorkspace, set.scanRowsPerPage, set.batchChunkSize,
      set.waitsPerWorkspace, set.streamsPerWorkspace], [4, 500, 3, 100, 50, 5, 6]);
  });

  it('caps MCP tool calls running per workspace and the messages of a JSON-RPC batch, and takes set values', () => {
    const defaults = loadConfig({});
    assert.deepEqual([defaults.mcpCallsPerWorkspace, defaults.mcpMaxBatch], [16, 10]);
    const set = loadConfig({ SANDBOX_MCP_CALLS_PER_WORKSPACE: '4', SANDBOX_MCP_MAX_BATCH: '1' });
    assert.deepEqual([set.mcpCallsPerWorkspace, set.mcpMaxBatch], [4, 1]);
    assert.throws(() => loadConfig({ SANDBOX_MCP_MAX_BATCH: '0' }), /^ConfigError: SANDBOX_MCP_MAX_BATCH/);
    assert.throws(() => loadConfig({ SANDBOX_MCP_CALLS_PER_WORKSPACE: 'many' }), /^ConfigError: SANDBOX_MCP_CALLS_PER_WORKSPACE/);
  });

  it('sizes the content workers and their heaps by the machine, at least two workers, and takes set values as they are', () => {
    const sized = (cores: number, memoryMb: number, env: Record<string, string> = {}) => {
      const config = loadConfig(env, { cores, memoryMb });
      return [config.contentThreads, config.parseMemoryMb];
    };
    assert.deepEqual(sized(2, 24_000), [2, 512], 'two cores, plenty of memory');
    assert.equal(loadConfig({}).threadIdleMs, 60_000, 'idle worker threads stop after a minute');
    assert.equal(loadConfig({ SANDBOX_THREAD_IDLE_MS: '500' }).threadIdleMs, 500);
    assert.deepEqual(sized(16, 32_000), [16, 512], 'a worker per core');
    assert.deepEqual(sized(1, 8_000), [2, 512], 'never fewer than two, so the lanes each keep a worker');
    assert.deepEqual(sized(16, 4_096), [4, 512], 'no more workers than half the memory holds at their heap limit');
    assert.deepEqual(sized(8, 2_048), [4, 256], 'a smaller machine: an eighth of its memory per worker heap');
    assert.deepEqual(sized(8, 512), [2, 128], 'at least 128 MB a worker');
    assert.deepEqual(sized(16, 4_096, { SANDBOX_CONTENT_THREADS: '12', SANDBOX_PARSE_MEMORY_MB: '64' }), [12, 64]);
    assert.deepEqual(sized(16, 4_096, { SANDBOX_PARSE_MEMORY_MB: '1024' }), [2, 1024], 'the worker count follows a set heap limit');
  });

  it('tells loopback binds from binds that other machines reach', () => {
    for (const bind of ['127.0.0.1', '127.0.0.2', '::1', 'localhost', '::ffff:127.0.0.1']) assert.equal(isLoopbackBind(bind), true, bind);
    for (const bind of ['0.0.0.0', '::', '192.168.1.10', 'fe80::1', 'sandbox.lan']) assert.equal(isLoopbackBind(bind), false, bind);
  });

  it('reads the content pool\'s and signed links\' fairness limits, refusing anything but a positive whole number', () => {
    const defaults = loadConfig({});
    assert.deepEqual(
      [defaults.contentReadsPerWorkspace, defaults.thumbnailMaxPixels, defaults.thumbnailConcurrency, defaults.signedLinkRate, defaults.signedLinkRatePerLink, defaults.fileServesPerWorkspace, defaults.refusalPauseMs],
      [16, 40_000_000, 1, 600, 60, 4, 1000],
    );
    const set = loadConfig({
      SANDBOX_CONTENT_READS_PER_WORKSPACE: '4',
      SANDBOX_THUMBNAIL_MAX_PIXELS: '1000000',
      SANDBOX_THUMBNAIL_CONCURRENCY: '2',
      SANDBOX_SIGNED_LINK_RATE: '30',
      SANDBOX_SIGNED_LINK_RATE_PER_LINK: '20',
      SANDBOX_FILE_SERVES_PER_WORKSPACE: '8',
      SANDBOX_REFUSAL_PAUSE_MS: '250',
    });
    assert.deepEqual(
      [set.contentReadsPerWorkspace, set.thumbnailMaxPixels, set.thumbnailConcurrency, set.signedLinkRate, set.signedLinkRatePerLink, set.fileServesPerWorkspace, set.refusalPauseMs],
      [4, 1_000_000, 2, 30, 20, 8, 250],
    );
    assert.equal(loadConfig({ SANDBOX_SIGNED_LINK_RATE: '35' }).signedLinkRatePerLink, 3, 'one link may take a tenth of its workspace\'s budget by default');
    assert.equal(loadConfig({ SANDBOX_SIGNED_LINK_RATE: '5' }).signedLinkRatePerLink, 1);
    assert.throws(
      () => loadConfig({ SANDBOX_SIGNED_LINK_RATE: '30', SANDBOX_SIGNED_LINK_RATE_PER_LINK: '31' }),
      (error: unknown) => error instanceof ConfigError && /^SANDBOX_SIGNED_LINK_RATE_PER_LINK: must be at most SANDBOX_SIGNED_LINK_RATE \(30\)/.test(error.message),
    );
    const variables = [
      'SANDBOX_CONTENT_READS_PER_WORKSPACE', 'SANDBOX_THUMBNAIL_MAX_PIXELS', 'SANDBOX_THUMBNAIL_CONCURRENCY', 'SANDBOX_SIGNED_LINK_RATE', 'SANDBOX_SIGNED_LINK_RATE_PER_LINK',
      'SANDBOX_FILE_SERVES_PER_WORKSPACE', 'SANDBOX_REFUSAL_PAUSE_MS',
    ];
    for (const variable of variables) {
      for (const value of ['0', '-1', 'many', '1.5']) {
        assert.throws(() => loadConfig({ [variable]: value }), (error: unknown) => error instanceof ConfigError && error.message.startsWith(`${variable}: `), `${variable}=${value}`);
      }
    }
  });

  it('reads the thumbnail processes\' memory limit, refusing one too small for any decode', () => {
    assert.equal(loadConfig({}).thumbnailMemoryMb, 512);
    assert.equal(loadConfig({ SANDBOX_THUMBNAIL_MEMORY_MB: '256' }).thumbnailMemoryMb, 256);
    for (const value of ['0', '100', 'lots', '1.5']) {
      assert.throws(() => loadConfig({ SANDBOX_THUMBNAIL_MEMORY_MB: value }), (error: unknown) => error instanceof ConfigError && error.message.startsWith('SANDBOX_THUMBNAIL_MEMORY_MB: '), value);
    }
    assert.throws(() => loadConfig({ SANDBOX_THUMBNAIL_MEMORY_MB: '100' }), /expected at least 160 \(a thumbnail process needs about 130 MB before it decodes anything\), got '100'/);
  });

  it('has no open inbox unless SANDBOX_OPEN_INBOX names one, by id or by workspace and name, loopback-bound on 1025', () => {
    assert.equal(loadConfig({}).openInbox, null);
    const id = 'inb_01jdz6xq0v3m8r5t7y9a2b4c6d';
    assert.deepEqual(loadConfig({ SANDBOX_OPEN_INBOX: id }).openInbox, { inbox: { kind: 'id', inboxId: id }, label: id, smtpPort: 1025, bind: '127.0.0.1' });
    assert.deepEqual(loadConfig({ SANDBOX_OPEN_INBOX: ' default/CI mail/2 ' }).openInbox?.inbox, { kind: 'name', workspace: 'default', inboxName: 'CI mail/2' });
    assert.deepEqual(loadConfig({ SANDBOX_OPEN_INBOX: 'ws_01jdz6xq0v3m8r5t7y9a2b4c6d/mailpit' }).openInbox?.inbox, { kind: 'name', workspace: 'ws_01jdz6xq0v3m8r5t7y9a2b4c6d', inboxName: 'mailpit' });
    const set = loadConfig({ SANDBOX_OPEN_INBOX: 'default/mailpit', SANDBOX_OPEN_INBOX_SMTP_PORT: '0', SANDBOX_OPEN_INBOX_BIND: '0.0.0.0' }).openInbox;
    assert.deepEqual([set?.smtpPort, set?.bind], [0, '0.0.0.0']);
    assert.ok(Object.isFrozen(set) && Object.isFrozen(set?.inbox));
  });

  it('refuses an open inbox it cannot name, a port another listener has, and its settings without it', () => {
    const refusals: [Record<string, string>, string, RegExp][] = [
      [{ SANDBOX_OPEN_INBOX: 'mailpit' }, 'SANDBOX_OPEN_INBOX', /expected an inbox id .* or <workspace id or name>\/<inbox name> such as default\/mailpit, got 'mailpit'/],
      [{ SANDBOX_OPEN_INBOX: 'inb_short' }, 'SANDBOX_OPEN_INBOX', /got 'inb_short'/],
      [{ SANDBOX_OPEN_INBOX: 'default/' }, 'SANDBOX_OPEN_INBOX', /each 1-100 characters/],
      [{ SANDBOX_OPEN_INBOX: '/mailpit' }, 'SANDBOX_OPEN_INBOX', /each 1-100 characters/],
      [{ SANDBOX_OPEN_INBOX: `default/${'x'.repeat(101)}` }, 'SANDBOX_OPEN_INBOX', /each 1-100 characters/],
      [{ SANDBOX_OPEN_INBOX: 'default/mailpit', SANDBOX_OPEN_INBOX_SMTP_PORT: '70000' }, 'SANDBOX_OPEN_INBOX_SMTP_PORT', /expected a port number/],
      [{ SANDBOX_OPEN_INBOX: 'default/mailpit', SANDBOX_OPEN_INBOX_SMTP_PORT: '2525' }, 'SANDBOX_OPEN_INBOX_SMTP_PORT', /2525 is SANDBOX_SMTP_PORT's port too/],
      [{ SANDBOX_OPEN_INBOX: 'default/mailpit', SANDBOX_OPEN_INBOX_SMTP_PORT: '8025' }, 'SANDBOX_OPEN_INBOX_SMTP_PORT', /8025 is SANDBOX_HTTP_PORT's port too/],
      [{ SANDBOX_OPEN_INBOX: 'default/mailpit', SANDBOX_METRICS_PORT: '1025' }, 'SANDBOX_OPEN_INBOX_SMTP_PORT', /1025 is SANDBOX_METRICS_PORT's port too/],
      [{ SANDBOX_OPEN_INBOX: 'default/mailpit', SANDBOX_OPEN_INBOX_BIND: 'my host' }, 'SANDBOX_OPEN_INBOX_BIND', /expected an IP address to listen on/],
      [{ SANDBOX_OPEN_INBOX_SMTP_PORT: '1025' }, 'SANDBOX_OPEN_INBOX_SMTP_PORT', /only means something with SANDBOX_OPEN_INBOX/],
      [{ SANDBOX_OPEN_INBOX_BIND: '0.0.0.0' }, 'SANDBOX_OPEN_INBOX_BIND', /only means something with SANDBOX_OPEN_INBOX/],
    ];
    for (const [env, variable, message] of refusals) {
      assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && error.message.startsWith(`${variable}: `) && message.test(error.message), JSON.stringify(env));
    }
    // Port 0 picks a free port for each listener, so it never collides.
    assert.equal(loadConfig({ SANDBOX_OPEN_INBOX: 'default/mailpit', SANDBOX_OPEN_INBOX_SMTP_PORT: '0', SANDBOX_SMTP_PORT: '0' }).openInbox?.smtpPort, 0);
  });

  it('names the SANDBOX_* variables that are no setting, with the setting a typo is likeliest of, and leaves the test runner\'s alone', () => {
    const config = loadConfig({ SANDBOX_HTTP_PROT: '8026', SANDBOX_FLUX_CAPACITOR: '1', SANDBOX_TEST_PROFILE: 'cluster', SANDBOX_HTTP_PORT: '8026', MAIL_SANDBOX_URL: 'http://x' });
    assert.deepEqual(config.unknownVariables, [
      { name: 'SANDBOX_FLUX_CAPACITOR', closest: null },
      { name: 'SANDBOX_HTTP_PROT', closest: 'SANDBOX_HTTP_PORT' },
    ]);
    assert.deepEqual(loadConfig({}).unknownVariables, []);
  });
});
