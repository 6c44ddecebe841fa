/** The agreement figures a calibration report shows, in display order, with what a reader needs to read them. */
export const AGREEMENT_STATISTICS = [
  'spearman',
  'kendall_tau_b',
  'mae',
  'kappa',
  'weighted_kappa_linear',
  'weighted_kappa_quadratic',
] as const;
export type AgreementStatistic = (typeof AGREEMENT_STATISTICS)[number];

export interface StatisticInfo {
  label: string;
  /** Lower is better for the mean absolute error only. */
  higherIsBetter: boolean;
  /** The value of perfect agreement. */
  perfect: number;
  /** One line for a report's legend. */
  reads: string;
}

const info = (label: string, higherIsBetter: boolean, reads: string): StatisticInfo => ({
  label,
  higherIsBetter,
  perfect: higherIsBetter ? 1 : 0,
  reads,
});

export const STATISTIC_INFO: Readonly<Record<AgreementStatistic, StatisticInfo>> = {
  spearman: info("Spearman's ρ", true, 'do judge and people rank traces alike (−1 to 1)'),
  kendall_tau_b: info("Kendall's τ-b", true, 'share of trace pairs ordered alike minus ordered oppositely (−1 to 1)'),
  mae: info('Mean absolute error', false, 'average gap between judge and people on the 0–1 scale'),
  kappa: info("Cohen's κ (pass/fail)", true, 'agreement on pass/fail at the gate threshold beyond chance (1 perfect)'),
  weighted_kappa_linear: info(
    'Weighted κ (linear)',
    true,
    'agreement on the three levels beyond chance, a two-level miss counting twice a one-level miss',
  ),
  weighted_kappa_quadratic: info(
    'Weighted κ (quadratic)',
    true,
    'agreement on the three levels beyond chance, a two-level miss counting four times a one-level miss',
  ),
};
