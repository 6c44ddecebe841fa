/** The public surface of src/experiment/ for other folders: imports from outside go through this file. */
export { loadGoldenItems, type GoldenItem } from './items.js';
export type { SplitFilter } from './report/model.js';
