/**
 * Splits `total` whole units over slots in proportion to `weights`, no slot above its cap (largest remainder,
 * ties to the lower index). Slots that would pass their cap are filled to it and the rest shared again among
 * the others. When every slot still open has weight 0, `fallback` weights share what is left. Returns counts
 * summing to min(total, Σ caps).
 */
export function apportionCapped(
  total: number,
  weights: readonly number[],
  caps: readonly number[],
  fallback: readonly number[] = caps,
): number[] {
  const counts = weights.map(() => 0);
  let left = Math.min(
    total,
    caps.reduce((s, c) => s + c, 0),
  );
  let open = weights.map((_, i) => i).filter((i) => (caps[i] as number) > 0);
  while (left > 0 && open.length > 0) {
    let w = open.map((i) => weights[i] as number);
    if (w.every((x) => x <= 0)) w = open.map((i) => fallback[i] as number);
    if (w.every((x) => x <= 0)) w = open.map(() => 1);
    const sum = w.reduce((s, x) => s + Math.max(0, x), 0);
    const exact = open.map((_, k) => (left * Math.max(0, w[k] as number)) / sum);
    const full = open.filter((i, k) => (counts[i] as number) + (exact[k] as number) >= (caps[i] as number));
    if (full.length > 0) {
      for (const i of full) {
        left -= (caps[i] as number) - (counts[i] as number);
        counts[i] = caps[i] as number;
      }
      open = open.filter((i) => !full.includes(i));
      continue;
    }
    const floors = exact.map(Math.floor);
    open.forEach((i, k) => (counts[i] = (counts[i] as number) + (floors[k] as number)));
    let rest = left - floors.reduce((s, x) => s + x, 0);
    const byRemainder = open
      .map((i, k) => ({ i, r: (exact[k] as number) - (floors[k] as number) }))
      .sort((a, b) => b.r - a.r || a.i - b.i);
    for (const { i } of byRemainder) {
      if (rest <= 0) break;
      counts[i] = (counts[i] as number) + 1;
      rest -= 1;
    }
    left = 0;
  }
  return counts;
}
