// docker-compose.yml, checked without a Docker engine: parsed as Compose reads it (merge keys), its services, profiles,
// ports, volumes and health checks, and each service node's environment read by loadConfig on top of the image's ENV.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { PROJECT_ROOT } from '../../src/project-root.js';

interface ComposeService {
  build?: string;
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}

const compose = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const dockerfile = fs.readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
const services = compose.services;
const nodeNames = Object.keys(services).filter((name) => services[name]!.build !== undefined);
const clusterNodes = nodeNames.filter((name) => services[name]!.profiles?.includes('cluster'));

/** The final stage's ENV, as KEY=VALUE pairs (the Dockerfile writes them one per continued line). */
function imageEnv(): Record<string, string> {
  const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')));
  assert.ok(block, 'the final stage has an ENV');
  return Object.fromEntries(block[1]!.split(/\s*\\\n\s*|\s+/).filter(Boolean).map((pair) => pair.split('=') as [string, string]));
}

/** "127.0.0.1:8026:8025" → { address, host, container }. */
function publish(port: string) {
  const [address, host, container] = port.split(':');
  return { address, host: Number(host), container: Number(container) };
}

describe('docker-compose.yml', () => {
  it('starts only the embedded service by default, built from the Dockerfile, on its own volume', () => {
    const byDefault = Object.keys(services).filter((name) => services[name]!.profiles === undefined);
    assert.deepEqual(byDefault, ['mail-sandbox']);
    const service = services['mail-sandbox']!;
    assert.equal(service.build, '.');
    assert.equal(service.environment?.SANDBOX_PROFILE, undefined);
    assert.deepEqual(service.volumes, ['sandbox-data:/data']);
    assert.deepEqual(service.ports?.map(publish).map(({ host, container }) => [host, container]), [[8025, 8025], [2525, 2525], [2465, 2465]]);
  });

  it('has a cluster profile of Elasticsearch, Redis, MinIO and two service nodes', () => {
    const cluster = Object.keys(services).filter((name) => services[name]!.profiles?.includes('cluster')).sort();
    assert.deepEqual(cluster, ['elasticsearch', 'minio', 'node-a', 'node-b', 'redis']);
    assert.deepEqual(clusterNodes, ['node-a', 'node-b']);
  });

  it('publishes every port on loopback only, each host port once', () => {
    const hostPorts = Object.values(services).flatMap((service) => (service.ports ?? []).map(publish));
    for (const port of hostPorts) assert.equal(port.address, '127.0.0.1', `${port.host} is published beyond loopback`);
    assert.equal(new Set(hostPorts.map((port) => port.host)).size, hostPorts.length, 'a host port is published twice');
  });

  it('publishes the services on scripts/services/up\'s host ports', () => {
    const hostPort = (name: string, container: number) => services[name]!.ports!.map(publish).find((port) => port.container === container)?.host;
    assert.equal(hostPort('elasticsearch', 9200), 9200);
    assert.equal(hostPort('redis', 6379), 6380);
    assert.equal(hostPort('minio', 9000), 9000);
    assert.equal(hostPort('minio', 9001), 9001);
  });

  it('gives every service a health check, the service nodes the image\'s own', () => {
    for (const [name, service] of Object.entries(services)) assert.ok(service.healthcheck?.test.length, `${name} has no health check`);
    const imageCheck = /^HEALTHCHECK .* CMD (\[.*\])$/m.exec(dockerfile);
    assert.ok(imageCheck, 'the Dockerfile has a HEALTHCHECK CMD');
    for (const name of nodeNames) assert.deepEqual(services[name]!.healthcheck!.test, ['CMD', ...JSON.parse(imageCheck[1]!) as string[]], name);
  });

  it('gives the service nodes longer to stop than the server\'s 30 s drain', () => {
    const grace = loadConfig(imageEnv()).shutdownGraceMs;
    for (const name of nodeNames) {
      const match = /^(\d+)s$/.exec(services[name]!.stop_grace_period ?? '');
      assert.ok(match && Number(match[1]) * 1000 > grace, `${name}: stop_grace_period ${services[name]!.stop_grace_period} is not over ${grace} ms`);
    }
  });

  it('declares every named volume a service mounts', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const mount of service.volumes ?? []) {
        const source = mount.split(':')[0]!;
        if (!source.startsWith('.') && !source.startsWith('/')) assert.ok(source in compose.volumes, `${name} mounts undeclared volume ${source}`);
      }
    }
  });

  it('configures each service node validly: loadConfig accepts its environment on top of the image\'s', () => {
    const machine = { cores: 2, memoryMb: 4096 };
    for (const name of nodeNames) {
      const config = loadConfig({ ...imageEnv(), ...services[name]!.environment }, machine);
      assert.equal(config.bind, '0.0.0.0', name);
      assert.equal(config.dataDir, '/data', name);
      assert.equal(config.httpPort, publish(services[name]!.ports![0]!).container, `${name}: the first published port is HTTP`);
    }
  });

  it('points the cluster nodes at the compose services, with MinIO\'s credentials, once they are healthy', () => {
    const minio = services.minio!.environment!;
    const nodeIds = new Set<string>();
    for (const name of clusterNodes) {
      const service = services[name]!;
      const config = loadConfig({ ...imageEnv(), ...service.environment }, { cores: 2, memoryMb: 4096 });
      assert.equal(config.profile, 'cluster');
      assert.equal(config.clusterNodes, clusterNodes.length, `${name}: SANDBOX_CLUSTER_NODES divides the per-workspace caps among the nodes`);
      assert.equal(config.elasticsearchUrl, 'http://elasticsearch:9200');
      assert.equal(config.redisUrl, 'redis://redis:6379');
      assert.equal(config.s3Url, 'http://minio:9000');
      assert.equal(config.s3AccessKey, minio.MINIO_ROOT_USER);
      assert.equal(config.s3SecretKey, minio.MINIO_ROOT_PASSWORD);
      nodeIds.add(config.nodeId);
      assert.deepEqual(service.depends_on, {
        elasticsearch: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' }, minio: { condition: 'service_healthy' },
      });
    }
    assert.equal(nodeIds.size, clusterNodes.length, 'each node has its own SANDBOX_NODE_ID');
  });
});
