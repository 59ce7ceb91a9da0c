// The message checks this server offers: the one list the route template serves and the runner runs. A new check is a
// module beside these and a line here (and its path in openapi.yaml, and its view in the dashboard's list).
import type { Config } from '../../config.js';
import type { NameResolver } from '../../outbound/name-resolver.js';
import type { TargetPolicy } from '../../outbound/target-policy.js';
import { authCheck } from './auth-check.js';
import { htmlCheck } from './html-check.js';
import { linkCheck } from './link-check.js';
import { spamCheck } from './spam-check.js';

export type CheckSettings = Pick<Config, 'linkCheckAllowPrivate' | 'linkCheckPorts' | 'spamd' | 'spamdTimeoutMs' | 'spamdMaxBytes'>;

export function messageChecks(config: CheckSettings, names: NameResolver) {
  // Links are checked as written, and many are plain http; linked stylesheets are fetched under the same policy: public
  // addresses only unless lifted for development.
  const policy: TargetPolicy = { allowPrivate: config.linkCheckAllowPrivate, allowPlainHttp: true, ports: config.linkCheckPorts, names };
  return [htmlCheck(policy), linkCheck(policy), spamCheck(config), authCheck(names)] as const;
}
