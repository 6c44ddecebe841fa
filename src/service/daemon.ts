import { resolve } from 'node:path';
import type { RagwatchConfig } from '../config/index.js';
import { runJudgeStage } from '../calibrate/index.js';
import {
  archivedReports,
  createExperimentJob,
  directoryReports,
  reportAccessFrom,
  reportRoute,
} from '../experiment/index.js';
import {
  ONLINE_JOB,
  runOnlineTick,
  createOnlineRuntime,
  processLeaseHolder,
  type OnlineRuntime,
  rateWarnings,
  samplingPolicyFrom,
} from '../online/index.js';
import { InputError } from '../errors.js';
import { backoffs, retry, RetryAbortedError } from '../internal/index.js';
import { LangfuseApiError } from '../langfuse/index.js';
import { judgeCredentialsRefused } from '../judge/index.js';
import { experimentScoreConfigs } from '../scores/index.js';
import { openState, recordLangfuseApi, type LeaseHolder, type StateStore } from '../state/index.js';
import { credentialsLine, DependencyHealth } from './dependency-health.js';
import { startHttpService, type HttpService, type ReadinessCheck, type RouteHandler } from './http.js';
import { withMetrics, type Runtime } from '../runtime/index.js';
import { createServiceMetrics, restoreJobSuccess, type ServiceMetrics } from './metrics.js';
import { cronIntervalMs, Scheduler, type JobSpec } from './scheduler.js';
import { DaemonRecordWriter } from './daemon-record.js';
import { fleetGaugeRefresher } from './fleet-gauges.js';
import { holdDaemonLease } from './daemon-lease.js';

export const EXPERIMENT_JOB = 'experiment';

export interface DaemonOptions {
  config: RagwatchConfig;
  /**
   * The process's runtime (clock, waits, transport, logger, …), built by `ragwatch run`; the jobs get it with the
   * daemon's Prometheus registry as its metrics.
   */
  runtime: Runtime;
  /** Defaults to the store `state.path` names. */
  state?: StateStore;
  holder?: LeaseHolder;
  /** The weekly golden-set experiment, scheduled on `experiment.schedule` when `experiment.enabled`. */
  experimentJob?: JobSpec['run'];
  /** Extra HTTP routes (e.g. serving reports). */
  routes?: RouteHandler[];
  /** Backoff between start-up connection attempts to Langfuse; grows to a minute. */
  connectBackoffMs?: number;
}

export interface Daemon {
  readonly http: HttpService;
  readonly metrics: ServiceMetrics;
  readonly scheduler: Scheduler;
  /** Resolves once Langfuse is connected and the jobs are scheduled; rejects on a fatal start-up error. */
  readonly ready: Promise<void>;
  /** Graceful shutdown: stop scheduling, drain within the deadline, close HTTP and state. */
  shutdown(reason: string): Promise<{ drained: boolean }>;
}

/** Errors that retrying cannot fix (bad keys, wrong base URL): the process should stop with exit code 2. */
export class FatalStartupError extends InputError {
  constructor(message: string) {
    super([message]);
  }
}

/**
 * The long-running service: HTTP first (so liveness answers while dependencies come up), then Langfuse
 * (API generation, score configs; retried while unreachable), then the cron jobs with a catch-up run.
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { config } = options;
  const { clock, logger } = options.runtime;
  for (const warning of rateWarnings(samplingPolicyFrom(config))) logger.warn(warning);

  const state = options.state ?? (await openState(config));
  const holder = options.holder ?? processLeaseHolder();
  // One host's file: say that a daemon uses it for as long as this one is up (`state migrate` refuses it).
  const alive = state.shared ? null : await holdDaemonLease(state, holder, clock.now, logger);
  const metrics = createServiceMetrics({
    scoreMetrics: config.metrics.online,
    ...(config.judge.pricing ? { pricing: config.judge.pricing } : {}),
  });
  // What the jobs run on: the process's runtime, reporting to this daemon's registry.
  const runtime = withMetrics(options.runtime, metrics);
  metrics.restoreGauges(await state.getGauges());
  restoreJobSuccess(metrics, ONLINE_JOB, (await state.getJobRun(ONLINE_JOB))?.lastSuccessAt ?? null);
  // Shared state: the replica that lists exports the ledger gauges, so that a sum over replicas counts each
  // trace once; the fleet's other figures are read from the state at each scrape (fleet-gauges.ts).
  if (!state.shared) metrics.ledgerCounts(await state.countByStatus());
  const refreshFleetGauges = state.shared ? fleetGaugeRefresher(state, metrics, { now: clock.now, logger }) : null;
  const exposition = {
    contentType: metrics.contentType,
    render: async () => {
      await refreshFleetGauges?.();
      return metrics.render();
    },
  };

  // What it schedules goes to the state as it goes, so `ragwatch status` answers for this daemon.
  const record = new DaemonRecordWriter(state, logger, clock.now);
  const scheduler = new Scheduler({
    timezone: config.timezone,
    logger,
    now: clock.now,
    onArmed: (job, next) => record.armed(job, next.getTime()),
  });
  const startup = new AbortController();
  const dependencies = new DependencyHealth(logger, clock.now, state.location);
  let online: OnlineRuntime | null = null;

  const readiness = async (): Promise<ReadinessCheck> => {
    const stateHealth = await state.health();
    // Shared state (PostgreSQL): a run's state error is the connection's, over once the server answers the probe
    // (a write error the server's answering does not clear still shows in `health`). A run draining a backlog may
    // go on for minutes after a cut: readiness does not wait for it to end.
    if (stateHealth.ok && state.shared) dependencies.stateAnswered();
    const stuckAfterMs = config.online.stuckAfterSeconds * 1000;
    const stuck = scheduler.runningJobs().filter((r) => clock.now() - r.since > stuckAfterMs);
    const checks: ReadinessCheck['checks'] = {
      state: stateHealth.ok ? dependencies.check('state') : { ok: false, detail: stateHealth.problem.message },
      langfuse: !online
        ? { ok: false, detail: 'not connected yet' }
        : dependencies.check('langfuse').ok
          ? { ok: true, detail: `api ${online.edges.langfuse.generation}` }
          : dependencies.check('langfuse'),
      judge: dependencies.check('judge'),
      ticks:
        stuck.length === 0
          ? { ok: true }
          : {
              ok: false,
              detail: `running longer than ${config.online.stuckAfterSeconds}s: ${stuck.map((s) => s.job).join(', ')}`,
            },
    };
    return { ready: Object.values(checks).every((c) => c.ok), checks };
  };

  // Reports are served only while the weekly experiment runs here: a disabled experiment publishes nothing.
  // With shared state every replica serves every report from the state; one host's installation, its directory.
  const reportSource = state.shared ? archivedReports(state) : directoryReports(resolve(config.experiment.reportsDir));
  const reports = config.experiment.enabled ? [reportRoute(reportSource, reportAccessFrom(config.http))] : [];
  const routes = [...(options.routes ?? []), ...reports];
  const http = await startHttpService({
    host: config.http.host,
    port: config.http.port,
    metrics: exposition,
    readiness,
    routes,
  });
  logger.info({ host: config.http.host, port: http.port }, 'http listening (/healthz, /readyz, /metrics)');

  const ready = (async () => {
    const connected = await connectWithRetry({ ...options, runtime, holder }, state, metrics, startup.signal);
    online = connected;
    await recordLangfuseApi(state, connected.edges.langfuse.generation, config.langfuse.apiGeneration, clock.now());
    logger.info(
      {
        api: connected.edges.langfuse.generation,
        judgeModel: connected.edges.judge.model,
        scoreConfigs: connected.deps.configIds.size,
      },
      'connected to Langfuse',
    );
    if (config.online.enabled) {
      scheduler.add({
        name: ONLINE_JOB,
        schedule: config.online.schedule,
        lastSuccessAt: async () => (await state.getJobRun(ONLINE_JOB))?.lastSuccessAt ?? null,
        run: async ({ stop, signal }) => {
          const report = await runOnlineTick(connected.deps, connected.settings, { stop, signal });
          dependencies.fromTick(report);
          return { more: report.outcome === 'success' && report.more };
        },
      });
    } else logger.warn('online.enabled is false: no online ticks will run');
    if (config.experiment.enabled) {
      // Replicas sharing the state fire together: the experiment runs on the one that takes its lease, once a slot.
      const oneReplica = state.shared
        ? { holder, slotMs: cronIntervalMs(config.experiment.schedule, config.timezone) / 2 }
        : undefined;
      const run =
        options.experimentJob ??
        createExperimentJob({
          config,
          runtime,
          state,
          metrics,
          judgeStage: runJudgeStage,
          // Shared state: the report is kept there, and every replica serves it.
          reports: state.shared ? state : null,
          ...(oneReplica ? { oneReplica } : {}),
        });
      scheduler.add({ name: EXPERIMENT_JOB, schedule: config.experiment.schedule, run });
    }
    await scheduler.start();
    await record.started(
      config.timezone,
      scheduler.schedules().map((j) => ({ ...j, nextRunAt: scheduler.nextRun(j.name)?.getTime() ?? null })),
    );
    logger.info(
      { timezone: config.timezone, nextOnlineTick: scheduler.nextRun(ONLINE_JOB)?.toISOString() ?? null },
      'scheduler started',
    );
  })();
  ready.catch(() => {});

  let shuttingDown: Promise<{ drained: boolean }> | null = null;
  const shutdown = (reason: string) => {
    shuttingDown ??= (async () => {
      logger.info({ reason, deadlineSeconds: config.http.shutdownDeadlineSeconds }, 'shutting down');
      startup.abort(new Error('shutting down'));
      await scheduler.stop();
      // Leave room for closing HTTP and state inside the deadline.
      const drained = await scheduler.drain(Math.max(1000, config.http.shutdownDeadlineSeconds * 1000 - 2000));
      if (!drained)
        logger.warn('in-flight work abandoned at the deadline; it stays pending and is retried on the next start');
      await ready.catch(() => {});
      await record.stopped();
      await alive?.release();
      await http.close();
      await state.close();
      logger.info({ drained }, 'stopped');
      return { drained };
    })();
    return shuttingDown;
  };

  return { http, metrics, scheduler, ready, shutdown };
}

async function connectWithRetry(
  options: DaemonOptions,
  state: StateStore,
  metrics: ServiceMetrics,
  signal: AbortSignal,
): Promise<OnlineRuntime> {
  const { config, runtime } = options;
  const { logger } = runtime;
  const holder = options.holder ?? processLeaseHolder();
  const policy = {
    ...backoffs.connect,
    attempts: Number.POSITIVE_INFINITY,
    baseMs: options.connectBackoffMs ?? backoffs.connect.baseMs,
  };
  const connect = async (): Promise<OnlineRuntime> => {
    signal.throwIfAborted();
    try {
      // A judge that refuses the key at start is a configuration error, like Langfuse refusing its keys.
      const refused = await judgeCredentialsRefused(config, runtime.fetch, signal);
      if (refused !== null) throw new FatalStartupError(credentialsLine('judge', `HTTP ${refused}`));
      const online = await createOnlineRuntime(config, { runtime, state, holder, recorder: metrics, signal });
      // The weekly experiment's configs are checked at start too: a clash refuses to start, not a run days later.
      if (config.experiment.enabled)
        await online.edges.langfuse.ensureScoreConfigs(experimentScoreConfigs(config), signal);
      return online;
    } catch (err) {
      if (!signal.aborted && err instanceof LangfuseApiError && !err.retryable) {
        throw new FatalStartupError(
          err.status === 401 || err.status === 403
            ? credentialsLine('langfuse', `HTTP ${err.status}`)
            : `langfuse.baseUrl: ${err.message}`,
        );
      }
      throw err;
    }
  };
  try {
    return await retry(policy, connect, {
      // A FatalStartupError is an InputError: never retried.
      shouldRetry: () => !signal.aborted,
      onRetry: (err, _attempt, retryInMs) => {
        const error =
          err instanceof LangfuseApiError
            ? `langfuse:${err.status ?? 'connection'}`
            : err instanceof Error
              ? err.name
              : 'error';
        logger.warn({ error, retryInMs }, 'cannot reach Langfuse yet; retrying');
      },
      signal,
    });
  } catch (err) {
    if (err instanceof RetryAbortedError) throw signal.reason;
    throw err;
  }
}
