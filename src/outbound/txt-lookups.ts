// The TXT lookups of one check: each name once, a few at a time (so one check never takes its workspace's whole share
// of lookups), at most a set number of names, all within one deadline; every outcome kept as an answer, failures
// included, for the check to word.
import { NOT_LOOKED_UP, type TxtAnswer } from '../domain/auth-check.js';
import { domainName } from '../domain/domain-names.js';
import { NameLookupError, type NameResolver } from './name-resolver.js';

export interface TxtLookupLimits {
  /** Names looked up at most; past them a name is answered NOT_LOOKED_UP without a query. */
  names: number;
  /** Lookups in flight at once. */
  atOnce: number;
  /** Every lookup ends within this long of the first. */
  deadlineMs: number;
}

export class TxtLookups {
  readonly answers = new Map<string, TxtAnswer>();
  private made = 0;
  private readonly deadline: AbortSignal;

  constructor(
    private readonly names: Pick<NameResolver, 'texts'>,
    private readonly workspaceId: string,
    private readonly limits: TxtLookupLimits,
    signal: AbortSignal,
  ) {
    this.deadline = AbortSignal.any([signal, AbortSignal.timeout(limits.deadlineMs)]);
  }

  /** Names looked up so far. */
  get count(): number {
    return this.made;
  }

  /** Looks up the names not looked up yet (as domainName writes them; another is answered as not a name). */
  async add(names: readonly string[]): Promise<void> {
    const fresh: string[] = [];
    for (const name of new Set(names)) {
      if (this.answers.has(name)) continue;
      if (domainName(name) !== name) this.answers.set(name, { code: 'EBADNAME', reason: `${name} is not a domain name` });
      else if (this.made === this.limits.names) this.answers.set(name, { code: NOT_LOOKED_UP, reason: `${name} was not looked up: a check looks up at most ${this.limits.names} names` });
      else {
        this.made++;
        fresh.push(name);
      }
    }
    let next = 0;
    const lookUpNext = async (): Promise<void> => {
      for (let index = next++; index < fresh.length; index = next++) this.answers.set(fresh[index]!, await this.lookUp(fresh[index]!));
    };
    await Promise.all(Array.from({ length: Math.min(this.limits.atOnce, fresh.length) }, lookUpNext));
  }

  private async lookUp(name: string): Promise<TxtAnswer> {
    try {
      return { records: await this.names.texts(name, this.workspaceId, this.deadline) };
    } catch (error) {
      if (!(error instanceof NameLookupError)) throw error;
      if (error.code === 'ECANCELLED' && this.deadline.aborted) {
        return { code: 'ETIMEOUT', reason: `the name ${name} got no answer within the check's ${this.limits.deadlineMs / 1000} s for lookups` };
      }
      return { code: error.code, reason: error.message };
    }
  }
}
