import type { StateBackend } from './backend.js';
import { claimCases } from './claim-cases.js';
import { leaseCases } from './lease-cases.js';
import { ledgerCases } from './ledger-cases.js';
import { otherCases } from './other-cases.js';

export type { StateBackend } from './backend.js';

/** Every case a state backend must pass (SQLite in `npm test`, PostgreSQL in the system tier). */
export function stateConformance(backend: StateBackend): void {
  ledgerCases(backend);
  leaseCases(backend);
  otherCases(backend);
  claimCases(backend);
}
