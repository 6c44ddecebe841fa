/**
 * Average ranks (1-based; tied values share the mean of the ranks they span), as Spearman's ρ needs them:
 * [0.5, 1, 1, 0] ranks as [2, 3.5, 3.5, 1]. Reads the first `n` values.
 */
export function averageRanks(values: ArrayLike<number>, n: number = values.length): Float64Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => (values[a] as number) - (values[b] as number));
  const ranks = new Float64Array(n);
  let start = 0;
  while (start < n) {
    let end = start + 1;
    const value = values[order[start] as number] as number;
    while (end < n && values[order[end] as number] === value) end++;
    // Positions start..end-1 hold ranks start+1..end; their mean is (start + 1 + end) / 2.
    const rank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) ranks[order[k] as number] = rank;
    start = end;
  }
  return ranks;
}
