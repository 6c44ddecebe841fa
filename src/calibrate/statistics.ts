/** The agreement figures a calibration report shows, in display order, with what a reader needs to read them. */
export const AGREEMENT_STATISTICS = ['spearman', 'kendall_tau_b', 'mae', 'kappa', 'weighted_kappa_linear', 'weighted_kappa_quadratic'] as const;
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

export const STATISTIC_INFO: Readonly<Record<AgreementStatistic, StatisticInfo>> = {
  spearman: { label: "Spearman's ρ", higherIsBetter: true, perfect: 1, reads: 'do judge and people rank traces alike (−1 to 1)' },
  kendall_tau_b: { label: "Kendall's τ-b", higherIsBetter: true, perfect: 1, reads: 'share of trace pairs ordered alike minus ordered oppositely (−1 to 1)' },
  mae: { label: 'Mean absolute error', higherIsBetter: false, perfect: 0, reads: 'average gap between judge and people on the 0–1 scale' },
  kappa: { label: "Cohen's κ (pass/fail)", higherIsBetter: true, perfect: 1, reads: 'agreement on pass/fail at the gate threshold beyond chance (1 perfect, 0 chance)' },
  weighted_kappa_linear: { label: 'Weighted κ (linear)', higherIsBetter: true, perfect: 1, reads: 'agreement on the three levels beyond chance, a two-level miss counting twice a one-level miss' },
  weighted_kappa_quadratic: { label: 'Weighted κ (quadratic)', higherIsBetter: true, perfect: 1, reads: 'agreement on the three levels beyond chance, a two-level miss counting four times a one-level miss' },
};
