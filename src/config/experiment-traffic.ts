/**
 * How the weekly experiment marks its requests to the RAG service, so the service's own traces of them can be
 * told apart from production traffic (docs/integrations.md, "Keeping the weekly run's traffic out"):
 * - every request carries `x-ragwatch-run: <run name>` and `x-ragwatch-item: <dataset item id>`;
 * - a service that reads no headers gets the same through `experiment.target.body` (`{{runName}}`, `{{itemId}}`);
 * - the service puts `EXPERIMENT_TRAFFIC_TAG` on the trace of such a request, and `online.filters.excludeTags`
 *   (default: that tag) keeps the online job off it.
 * The traces ragwatch writes itself for the run are in the environment `sdk-experiment`, excluded by default too.
 */
export const EXPERIMENT_RUN_HEADER = 'x-ragwatch-run';
export const EXPERIMENT_ITEM_HEADER = 'x-ragwatch-item';
export const EXPERIMENT_TRAFFIC_TAG = 'ragwatch-experiment';
