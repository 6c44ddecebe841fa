/** The golden-set builder's public surface for other folders: for now the records state keeps for it. */
export type {
  BuildRecord,
  CandidateRecord,
  CandidateStatus,
  GoldenBuildStore,
  PublicationRecord,
  SeedRecord,
  SeedStage,
} from './ports.js';
