/**
 * What judge work costs: `judge.pricing` prices a million prompt, completion and embedding tokens in one currency
 * (an on-prem judge's price is its GPU hours over the tokens they serve; docs/operations.md shows the sum).
 */
export interface Pricing {
  /** ISO 4217 code, e.g. `EUR`. */
  currency: string;
  promptPerMillion: number;
  completionPerMillion: number;
  embeddingsPerMillion: number;
}

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  embeddingTokens?: number;
}

/** The cost of these tokens at these prices, in the pricing's currency. */
export function costOf(tokens: TokenCounts, pricing: Pricing): number {
  return (
    (tokens.promptTokens * pricing.promptPerMillion +
      tokens.completionTokens * pricing.completionPerMillion +
      (tokens.embeddingTokens ?? 0) * pricing.embeddingsPerMillion) /
    1_000_000
  );
}

/** `0.0123 EUR`: four significant digits below one unit (a sample costs fractions of a cent), else cents. */
export function formatCost(value: number, currency: string): string {
  const shown = value === 0 ? '0' : Math.abs(value) < 1 ? value.toPrecision(4) : value.toFixed(2);
  return `${shown} ${currency}`;
}

/** A result's usage as scores carry it in their metadata: calls and tokens, and their cost when priced. */
export function usageMetadata(
  usage: TokenCounts & { calls: number },
  pricing: Pricing | undefined,
): {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  embeddingTokens?: number;
  cost?: number;
  currency?: string;
} {
  const base = {
    calls: usage.calls,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    ...(usage.embeddingTokens ? { embeddingTokens: usage.embeddingTokens } : {}),
  };
  return pricing ? { ...base, cost: costOf(usage, pricing), currency: pricing.currency } : base;
}
