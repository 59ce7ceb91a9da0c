// The noisy-neighbour bench's attacks by name, in the order they run: the thumbnail bomb last, since its native decodes may outlast its window.
import { bigReads, heavyQueries, hostileThumbnails, largeTransactions, signedDownloads, slowWebhooks, svgThumbnails, tagRules, type Attack, type AttackOptions } from './noisy-neighbour-attacks.js';
import { connectionFlood, idleConnections, type ServerPorts } from './noisy-neighbour-connections.js';
import { mcpBatch } from './noisy-neighbour-mcp.js';

export const ATTACK_NAMES = [
  'heavy-queries',
  'tag-rules',
  'connection-flood',
  'signed-downloads',
  'slow-webhooks',
  'large-transactions',
  'hostile-thumbnails',
  'big-reads',
  'idle-connections',
  'mcp-batch',
  'svg-thumbnails',
] as const;
export type AttackName = (typeof ATTACK_NAMES)[number];

export function makeAttack(name: AttackName, options: AttackOptions, server: ServerPorts): Attack {
  switch (name) {
    case 'heavy-queries':
      return heavyQueries(options);
    case 'tag-rules':
      return tagRules(options);
    case 'connection-flood':
      return connectionFlood(options, server);
    case 'signed-downloads':
      return signedDownloads(options);
    case 'slow-webhooks':
      return slowWebhooks(options);
    case 'large-transactions':
      return largeTransactions(options);
    case 'hostile-thumbnails':
      return hostileThumbnails(options);
    case 'big-reads':
      return bigReads(options);
    case 'idle-connections':
      return idleConnections(options, server);
    case 'mcp-batch':
      return mcpBatch(options);
    case 'svg-thumbnails':
      return svgThumbnails(options);
  }
}
