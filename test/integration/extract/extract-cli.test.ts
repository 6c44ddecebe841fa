import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { context, trace } from '@opentelemetry/api';
import { startScriptedLlmServer, type ScriptedLlmServer } from '@ragwatch/devkit/corpus/emit/scripted-llm.js';
import { otelGenai } from '@ragwatch/devkit/corpus/integrations/otel-genai.js';
import { startLangfuseServer, type LangfuseServer } from '@ragwatch/devkit/langfuse/index.js';
import { traceNameKey } from '../../../src/internal/index.js';
import { runCliInProcess } from '../../helpers/run-cli-in-process.js';

/** `ragwatch extract --trace ID` against the stand-in, on traces a hand-instrumented OpenTelemetry app sent. */

const EMAIL = 'ana.garcia.fake@example.com';
const CARELESS_SPAN = 'pedido de Ana García';

for (const personality of ['v3', 'v4'] as const) {
  describe(`ragwatch extract --trace (${personality})`, () => {
    let lf: LangfuseServer;
    let llm: ScriptedLlmServer;
    const ids: Record<string, string> = {};
    let env: NodeJS.ProcessEnv;

    beforeAll(async () => {
      lf = await startLangfuseServer({ personality });
      llm = await startScriptedLlmServer();
      const session = await otelGenai.start({ baseUrl: lf.url, publicKey: lf.publicKey, secretKey: lf.secretKey }, llm);
      for (const scenario of otelGenai.scenarios) {
        const before = new Set(lf.store.traces().map((t) => t.id));
        await scenario.run(session.env);
        await session.flush();
        ids[scenario.name] = lf.store.traces().find((t) => !before.has(t.id))!.id;
      }
      // A question with personal data: the command shows texts anonymized.
      const { tracer } = session.env;
      const root = tracer.startSpan('POST /chat');
      const inRoot = trace.setSpan(context.active(), root);
      const docs = JSON.stringify([{ id: 'd1', score: 0.9, content: 'Orders ship within 48 hours.' }]);
      tracer
        .startSpan(
          'retrieval kb',
          { attributes: { 'gen_ai.operation.name': 'retrieval', 'gen_ai.retrieval.documents': docs } },
          inRoot,
        )
        .end();
      const messages = (role: string, text: string) =>
        JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);
      tracer
        .startSpan(
          'chat gpt-4o-mini',
          {
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o-mini',
              'gen_ai.input.messages': messages('user', `I am ${EMAIL}, when will my order ship?`),
              'gen_ai.output.messages': messages('assistant', 'Within 48 hours.'),
            },
          },
          inRoot,
        )
        .end();
      // A span named after the user (issue 29, part 5): printed as its key only.
      tracer.startSpan(CARELESS_SPAN, {}, inRoot).end();
      root.end();
      await session.flush();
      ids.pii = root.spanContext().traceId;
      await session.shutdown();
      env = {
        LANGFUSE_BASE_URL: lf.url,
        LANGFUSE_PUBLIC_KEY: lf.publicKey,
        LANGFUSE_SECRET_KEY: lf.secretKey,
        RAGWATCH_JUDGE_BASE_URL: 'http://127.0.0.1:9/v1',
        RAGWATCH_JUDGE_MODEL: 'judge',
      };
    });
    afterAll(async () => {
      await llm?.close();
      await lf?.close();
    });

    it('names the rule behind each part and shows the texts the judge would get', async () => {
      const { code, stdout } = await runCliInProcess(['extract', '--trace', ids['retrieval-documents-attribute']!], {
        env,
      });
      expect(code).toBe(0);
      expect(stdout).toContain(`read through the ${personality} API`);
      expect(stdout).toMatch(
        /contexts +retrieval-span:retrieval kb-en +\[rule retriever\.gen_ai: OpenTelemetry gen_ai\.retrieval\.documents; from retrieval\]/,
      );
      expect(stdout).toMatch(/question +generation:chat gpt-4o-mini\.input +\[rule generation\.prompt/);
      expect(stdout).toContain('context 2: ');
      expect(stdout).toMatch(/SPAN "retrieval kb-en"  <- retrieval, gave contexts/);
    });

    it('--json carries the parts and the observation map', async () => {
      const { code, stdout } = await runCliInProcess(
        ['extract', '--trace', ids['retrieval-documents-attribute']!, '--json'],
        { env },
      );
      expect(code).toBe(0);
      const report = JSON.parse(stdout) as {
        apiGeneration: string;
        outcome: { ok: boolean; parts: { contexts: { rule: string; from: string } } };
        observations: Array<{ name: string; roles: string[]; metadata: string[] }>;
        anonymized: { contexts: string[] };
      };
      expect(report.apiGeneration).toBe(personality);
      expect(report.outcome.parts.contexts).toMatchObject({ rule: 'retriever.gen_ai', from: 'retrieval' });
      expect(report.anonymized.contexts).toHaveLength(2);
      const retrieval = report.observations.find((o) => o.name === 'retrieval kb-en')!;
      expect(retrieval.roles).toEqual(['retrieval', 'gave contexts']);
      expect(retrieval.metadata).toContain('attributes.gen_ai.retrieval.documents');
    });

    it('says why a trace is skipped and how to map it: a result, exit 0, the reason in --json too', async () => {
      const { code, stdout } = await runCliInProcess(['extract', '--trace', ids['tool-call-not-retrieval']!], { env });
      expect(code).toBe(0);
      expect(stdout).toContain('skipped: not_rag (no retrieval and no context in the prompt)');
      expect(stdout).toContain(
        '  - no retrieval step among 3 observation(s) (tools get_order_status returned no documents)',
      );
      expect(stdout).toContain('contexts: { observation: "get_order_status", path: "output" }');
      expect(stdout).not.toContain('LUM-10023');
      const json = await runCliInProcess(['extract', '--trace', ids['tool-call-not-retrieval']!, '--json'], { env });
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({
        result: 'skipped',
        outcome: { ok: false, reason: 'not_rag', detail: expect.stringMatching(/no retrieval/) },
      });
    });

    it('uses the configured online.extract mapping unless told not to', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ragwatch-extract-'));
      const file = join(dir, 'ragwatch.yaml');
      writeFileSync(
        file,
        'online:\n  extract:\n    contexts: { observation: get_order_status, path: output.status }\n',
      );
      const mapped = await runCliInProcess(['--config', file, 'extract', '--trace', ids['tool-call-not-retrieval']!], {
        env,
      });
      expect(mapped.code).toBe(0);
      expect(mapped.stdout).toContain('online.extract mapping: configured');
      expect(mapped.stdout).toMatch(
        /contexts +mapping:get_order_status\.output\.status +\[rule mapping: your online\.extract mapping; from mapping\]/,
      );
      const auto = await runCliInProcess(
        ['--config', file, 'extract', '--trace', ids['tool-call-not-retrieval']!, '--ignore-mapping'],
        { env },
      );
      expect(auto.code).toBe(0);
      expect(auto.stdout).toContain('online.extract mapping: ignored (--ignore-mapping)');
      writeFileSync(file, 'online:\n  extract:\n    contexts: { observation: x, path: "output[" }\n');
      const invalid = await runCliInProcess(['--config', file, 'extract', '--trace', ids['tool-call-not-retrieval']!], {
        env,
      });
      expect(invalid.code).toBe(2);
      expect(invalid.stderr).toMatch(/^config: online\.extract\.contexts\.path: invalid path/m);
    });

    it('shows texts anonymized: personal data in the question stays out of the output', async () => {
      const { code, stdout } = await runCliInProcess(['extract', '--trace', ids.pii!], { env });
      expect(code).toBe(0);
      expect(stdout).toMatch(/question: I am \S+, when will my order ship\?/);
      expect(stdout).not.toContain(EMAIL);
      expect(stdout).not.toContain('García');
      expect(stdout).toContain(`SPAN ${JSON.stringify(traceNameKey(CARELESS_SPAN))}`);
      const json = await runCliInProcess(['extract', '--trace', ids.pii!, '--json'], { env });
      expect(json.stdout).not.toContain('García');
      expect(json.stdout).not.toContain(EMAIL);
    });

    it('an unknown trace or a missing id is bad input (exit 2)', async () => {
      const missing = await runCliInProcess(['extract', '--trace', 'no-such-trace'], { env });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('extract: trace no-such-trace not found');
      expect((await runCliInProcess(['extract'], { env })).code).toBe(2);
    });
  });
}
