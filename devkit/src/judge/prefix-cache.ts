/**
 * A model of vLLM's automatic prefix caching: the prompt is cut into blocks of `blockSize` tokens, each block
 * identified by a hash chained over every token before it; the leading blocks already seen are "cached".
 * It yields `usage.prompt_tokens_details.cached_tokens` like vLLM with prefix caching on.
 */
import { createHash } from 'node:crypto';

export class PrefixCache {
  private readonly seen = new Set<string>();

  constructor(
    private readonly blockSize = 16,
    private readonly maxBlocks = 1_000_000,
  ) {}

  /** Number of leading prompt tokens served from the cache; the prompt's blocks are remembered. */
  lookup(tokens: number[]): number {
    let parent = '';
    let cached = 0;
    let missed = false;
    for (let start = 0; start + this.blockSize <= tokens.length; start += this.blockSize) {
      const hash = createHash('sha1')
        .update(parent)
        .update(tokens.slice(start, start + this.blockSize).join(','))
        .digest('base64');
      if (!missed && this.seen.has(hash)) cached += this.blockSize;
      else missed = true;
      if (this.seen.size >= this.maxBlocks) this.seen.clear();
      this.seen.add(hash);
      parent = hash;
    }
    return cached;
  }

  reset(): void {
    this.seen.clear();
  }
}
