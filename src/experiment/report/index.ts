export * from './model.js';
export {
  buildReport,
  perItemValues,
  NOISE_DELTA_THRESHOLD,
  type BuildReportInput,
  type ItemOutcome,
  type PreviousRun,
} from './build.js';
export { renderMarkdown } from './markdown.js';
export { renderHtml } from './html.js';
export { renderReportFiles, writeReportFiles, safeDirName, type RenderedReport, type WrittenReport } from './write.js';
export { outcomeLabel, DEFAULT_GATE, type GateConfig } from './gate-summary.js';
export { usageSummary, type UsageRow, type UsageSummary } from './usage.js';
