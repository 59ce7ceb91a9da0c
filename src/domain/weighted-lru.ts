// A least-recently-used map bounded by the summed weight of its values (their size in bytes, say), not their count:
// one entry may be a thousand times another.

export class WeightedLru<K, V> {
  /** A Map iterates in insertion order: re-inserting on each hit keeps the least recently used first. */
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private totalWeight = 0;

  constructor(private readonly maxWeight: number) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** An entry heavier than the whole bound is not kept. */
  set(key: K, value: V, weight: number): void {
    this.delete(key);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.totalWeight <= this.maxWeight) break;
      this.entries.delete(oldest);
      this.totalWeight -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }

  /** Every entry, least recently used first, without touching any; deleting while iterating is safe. */
  *oldestFirst(): IterableIterator<[K, V]> {
    for (const [key, entry] of this.entries) yield [key, entry.value];
  }

  get weight(): number {
    return this.totalWeight;
  }
}
