import { afterEach, describe, expect, it } from 'vitest';
import { startHttpService, type HttpService } from '../../../src/service/http.js';
import { createServiceMetrics } from '../../../src/service/metrics.js';

let service: HttpService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

describe('service metrics', () => {
  it('exposes the online counters, ledger, judge and Langfuse series and the score gauges', async () => {
    const m = createServiceMetrics({ scoreMetrics: ['faithfulness', 'answer_relevancy'], processMetrics: false });
    m.tracesListed(3);
    m.traceSampled();
    m.traceSkipped('no_contexts');
    m.traceSkipped('free text that is not a code: María 612345678');
    m.traceFailed('metric:faithfulness:http_500');
    m.ledgerCounts({ pending: 1, done: 2, skipped: 0, failed: 0, dead: 1 });
    m.observeJudgeRequest({ kind: 'chat', outcome: 'ok', latencyMs: 20, promptTokens: 100, completionTokens: 10 });
    m.observeLangfuseRequest({ route: 'GET /api/public/traces/{id}', outcome: 'ok', latencyMs: 5 });
    m.scoreMeans({ faithfulness: 0.9 });
    m.restoreGauges({ rag_answer_relevancy_score: 0.7, unknown_gauge: 3 });
    m.tickFinished('online', 'success', true, 1_700_000_000_000);
    const text = await m.render();
    expect(text).toMatch(/^ragwatch_traces_listed_total 3$/m);
    expect(text).toMatch(/^ragwatch_traces_skipped_total\{reason="no_contexts",trace_name="unnamed"\} 1$/m);
    expect(text).toMatch(/^ragwatch_traces_skipped_total\{reason="other",trace_name="unnamed"\} 1$/m);
    expect(text).not.toMatch(/María|612345678/);
    expect(text).toMatch(/^ragwatch_ledger_entries\{status="dead"\} 1$/m);
    expect(text).toMatch(/^ragwatch_judge_tokens_total\{kind="chat",direction="prompt"\} 100$/m);
    expect(text).toMatch(/^rag_faithfulness_score 0\.9$/m);
    expect(text).toMatch(/^rag_answer_relevancy_score 0\.7$/m);
    expect(text).toMatch(/^ragwatch_job_last_success_timestamp_seconds\{job="online"\} 1700000000$/m);
    expect(text).not.toContain('ragwatch_judge_cost_total');
  });

  it('prices every judge request with judge.pricing: chat at the prompt and completion rates, embeddings at theirs', async () => {
    const pricing = { currency: 'EUR', promptPerMillion: 2, completionPerMillion: 6, embeddingsPerMillion: 0.5 };
    const m = createServiceMetrics({ scoreMetrics: ['faithfulness'], processMetrics: false, pricing });
    m.observeJudgeRequest({ kind: 'chat', outcome: 'ok', latencyMs: 20, promptTokens: 1000, completionTokens: 100 });
    m.observeJudgeRequest({ kind: 'chat', outcome: 'retry', latencyMs: 20, promptTokens: 500, completionTokens: 0 });
    m.observeJudgeRequest({ kind: 'embeddings', outcome: 'ok', latencyMs: 5, promptTokens: 4000, completionTokens: 0 });
    const text = await m.render();
    // (1500 × 2 + 100 × 6) / 1e6 = 0.0036; 4000 × 0.5 / 1e6 = 0.002.
    expect(text).toMatch(/^ragwatch_judge_cost_total\{kind="chat",currency="EUR"\} 0\.0036$/m);
    expect(text).toMatch(/^ragwatch_judge_cost_total\{kind="embeddings",currency="EUR"\} 0\.002$/m);
  });
});

describe('http service', () => {
  it('answers /healthz, /readyz (503 when not ready), /metrics and extra routes', async () => {
    let ready = false;
    service = await startHttpService({
      host: '127.0.0.1',
      port: 0,
      metrics: { render: async () => 'x_total 1\n', contentType: 'text/plain; version=0.0.4' },
      readiness: async () => ({ ready, checks: { state: { ok: ready } } }),
    });
    service.addRoute((req, res) => {
      if (req.url !== '/reports/') return false;
      res.end('reports');
      return true;
    });
    const base = `http://127.0.0.1:${service.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    ready = true;
    const r = await fetch(`${base}/readyz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: 'ready', checks: { state: { ok: true } } });
    const m = await fetch(`${base}/metrics`);
    expect(m.headers.get('content-type')).toMatch(/version=0\.0\.4/);
    expect(await m.text()).toBe('x_total 1\n');
    expect(await (await fetch(`${base}/reports/`)).text()).toBe('reports');
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });
});
