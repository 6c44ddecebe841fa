/**
 * Which scores are ragwatch's own: written through the ingestion API (source `API`). Every reader of ragwatch's
 * scores (experiment baselines and trends, the calibration's judge side) filters by name and by this source, so
 * a person's score — source `ANNOTATION`, even under ragwatch's own name — never mixes into a judge figure.
 */
export const OWN_SCORE_SOURCE = 'API';

export function isOwnScore(score: { source?: unknown } | null | undefined): boolean {
  return typeof score?.source === 'string' && score.source.toUpperCase() === OWN_SCORE_SOURCE;
}
