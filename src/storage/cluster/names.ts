// Names of everything the cluster profile keeps on shared services; SANDBOX_NAMESPACE keeps runs apart.

export interface ClusterNames {
  /** Alias every message read and write goes through; a reindex can point it at a new index. */
  messagesAlias: string;
  /** Pattern the messages index template applies to (concrete indices are `<alias>-<6 digits>`). */
  messagesIndexPattern: string;
  messagesTemplate: string;
  /** First concrete index, created when the alias does not exist yet. */
  firstMessagesIndex: string;
  bucket: string;
  /** Prefix of every Redis key and channel, ending in ':'. */
  redisPrefix: string;
}

export function clusterNames(namespace: string): ClusterNames {
  const base = namespace ? `mail-sandbox-${namespace}` : 'mail-sandbox';
  return {
    messagesAlias: `${base}-messages`,
    messagesIndexPattern: `${base}-messages-*`,
    messagesTemplate: `${base}-messages`,
    firstMessagesIndex: `${base}-messages-000001`,
    bucket: `${base}-blobs`,
    redisPrefix: namespace ? `mail-sandbox:${namespace}:` : 'mail-sandbox:',
  };
}
