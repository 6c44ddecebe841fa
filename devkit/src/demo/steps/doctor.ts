import { exitCodeFor, formatReport, runDoctor } from 'ragwatch/commands/doctor.js';
import { ExitCode } from 'ragwatch/exit-codes.js';
import type { DemoEnvironment, DemoStep, DemoStepResult } from '../run-demo.js';

/** `ragwatch doctor` against the stand-ins: keys, API generation, judge model, structured output, embeddings, state path. */
export const doctorStep: DemoStep = {
  name: 'doctor',
  title: 'Check the setup (ragwatch doctor against the stand-ins)',
  async run(env: DemoEnvironment): Promise<DemoStepResult> {
    const report = await runDoctor(env.config, { cwd: env.workDir, timeoutMs: 15_000 });
    return { ok: exitCodeFor(report) === ExitCode.ok, lines: formatReport(report), data: report };
  },
};
