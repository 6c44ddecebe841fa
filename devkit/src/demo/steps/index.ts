import type { DemoStep } from '../run-demo.js';
import { doctorStep } from './doctor.js';
import { experimentStep } from './experiment.js';
import { goldenStep } from './golden.js';
import { onlineStep } from './online.js';
import { seedCorpusStep } from './seed-corpus.js';

/** The steps `ragwatch demo` runs, in order. New capabilities append theirs here. */
export function defaultDemoSteps(): DemoStep[] {
  return [seedCorpusStep, doctorStep, onlineStep, experimentStep, goldenStep];
}

export { seedCorpusStep, doctorStep, onlineStep, experimentStep, goldenStep };
