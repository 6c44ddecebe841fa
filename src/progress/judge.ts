import type { JudgeClient, StructuredRequest, StructuredResult } from '../judge/index.js';
import type { Progress } from './reporter.js';

/** A judge client whose calls in flight (sent, not answered yet, retries included) are counted by `progress`. */
export function countingJudge(inner: JudgeClient, progress: Pick<Progress, 'callStarted' | 'callEnded'>): JudgeClient {
  return {
    get model() {
      return inner.model;
    },
    async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      progress.callStarted();
      try {
        return await inner.structured(request);
      } finally {
        progress.callEnded();
      }
    },
  };
}
