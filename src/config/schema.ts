import { z } from 'zod';
import { EXPERIMENT_TRAFFIC_TAG } from './experiment-traffic.js';
import { calibrateCrossProblems, calibrateSectionFor } from './calibrate-section.js';
import { isCronExpression, isListenHost, urlHasCredentials } from './checks.js';
import { metricFor, thresholdsFor, type MetricCatalog } from './metric-catalog.js';

/**
 * The whole configuration of ragwatch. Every key has a default that works against the devkit,
 * so an empty YAML file plus the deployment's environment variables is a valid configuration.
 * Each section belongs to one feature folder; keep descriptions short, `config/ragwatch.example.yaml`
 * documents every key for operators. Every number has a range: a value far outside it is a typo, and some
 * (a timeout past setTimeout's 24.8 days, a concurrency of 1e9) would break ragwatch in ways far from the key.
 */

const between = (min: number, max: number) =>
  z
    .number({ error: 'must be a number' })
    .min(min, { error: `must be between ${min} and ${max}` })
    .max(max, { error: `must be between ${min} and ${max}` });

/** An integer in [min, max]; the range is checked first so 1e20 reads "between", not "an integer". */
const intBetween = (min: number, max: number) => between(min, max).int({ error: 'must be an integer' });

const MINUTE_MS = 60_000;
const KIB = 1024;
/** Most UTF-8 bytes one estimated token covers (4 three-byte letters), whitespace collapsed: see metrics/budget.ts. */
const BYTES_PER_TOKEN = 16;
const MIB = 1024 * KIB;
const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;
/** Requests in flight to one server: more than any judge, Langfuse or RAG service takes at once. */
const MAX_CONCURRENCY = 1024;
/** Per-request deadlines; a judge or a RAG service that needs longer is not answering. */
const timeoutMs = () => intBetween(1, 60 * MINUTE_MS);
const attempts = () => intBetween(1, 20);
const MAX_TOKENS = 1_048_576;
const tokens = () => intBetween(1, MAX_TOKENS);
/** What a text sent to the judge may take: at least room for a few words besides the cut marker. */
const budget = () => intBetween(16, MAX_TOKENS);
/** Seeds are handed to the judge (vLLM) and the bootstrap: unsigned 32-bit, what every sampler takes. */
const seed = () => intBetween(0, 4_294_967_295);

const cron = () =>
  z.string().refine(isCronExpression, { error: 'must be a cron expression (5 or 6 fields, such as "*/5 * * * *")' });

/**
 * An http(s) URL without `user:password@` (fetch refuses those, and they would be printed): `hint` says where
 * credentials go instead.
 */
const url = (hint: string) =>
  z
    .url({ error: 'must be an http(s) URL' })
    .refine((u) => /^https?:\/\//.test(u), { error: 'must be an http(s) URL' })
    .refine((u) => !urlHasCredentials(u), { error: `must not contain credentials (user:password@): ${hint}` });

const langfuseSection = z
  .object({
    baseUrl: url(
      'set the keys as langfuse.publicKey and langfuse.secretKey (LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY)',
    ).default('http://localhost:3000'),
    publicKey: z.string().default(''),
    secretKey: z.string().default(''),
    /** `auto` probes the server at start-up; `v3` uses the traces API, `v4` the v2 observations API. */
    apiGeneration: z.enum(['auto', 'v3', 'v4']).default('auto'),
    timeoutMs: timeoutMs().default(30_000),
    maxAttempts: attempts().default(5),
    /** Environment written on ragwatch's own traces, excluded from online sampling (Langfuse's naming rule). */
    ownEnvironment: z
      .string()
      .regex(/^(?!langfuse)[a-z0-9_-]{1,40}$/, {
        error: 'must be 1-40 lower-case letters, digits, - or _, not starting with "langfuse"',
      })
      .default('ragwatch'),
    /** Most of one trace read and kept (its responses together); the rest is cut as it streams in, flagged on scores. */
    maxTraceBytes: intBetween(64 * KIB, 256 * MIB).default(MIB),
    /** Most of one string of a trace (an input, an output, a retriever's chunks as one string). */
    maxFieldBytes: intBetween(KIB, 64 * MIB).default(128 * KIB),
  })
  .strict()
  .superRefine((langfuse, ctx) => {
    // Only between two values each within its own range (an out-of-range one already has its line).
    const { maxTraceBytes, maxFieldBytes } = langfuse;
    const inRange = maxTraceBytes >= 64 * KIB && maxTraceBytes <= 256 * MIB && maxFieldBytes >= KIB;
    if (inRange && maxFieldBytes > maxTraceBytes) {
      const message = `must be at most langfuse.maxTraceBytes (${maxTraceBytes})`;
      ctx.addIssue({ code: 'custom', path: ['maxFieldBytes'], input: maxFieldBytes, message });
    }
  })
  .prefault({});

const judgeSection = z
  .object({
    baseUrl: url('set the key as judge.apiKey (RAGWATCH_JUDGE_API_KEY)').default('http://localhost:8000/v1'),
    model: z.string().default('judge'),
    apiKey: z.string().default('EMPTY'),
    concurrency: intBetween(1, MAX_CONCURRENCY).default(16),
    timeoutMs: timeoutMs().default(120_000),
    maxAttempts: attempts().default(4),
    temperature: between(0, 2).default(0),
    seed: seed().optional().default(42),
    maxTokens: tokens().default(2048),
    /** Sends `chat_template_kwargs: {enable_thinking: false}` for reasoning models served by vLLM. */
    disableThinking: z.boolean().default(true),
    /** Records every judge call of the online job in Langfuse (under `langfuse.ownEnvironment`), linked from the score. */
    traceCalls: z.boolean().default(false),
    /**
     * Which waiting call gets the next free slot when calls queue for the judge (a drain, a weekly run): the longest
     * prompt first, so a backlog ends on short calls and its tail is short, or in order of arrival.
     */
    queueOrder: z.enum(['longest-first', 'arrival']).default('longest-first'),
    /**
     * What a million tokens cost (an on-prem judge: its GPU hours ÷ the tokens it serves in them): reports, scores'
     * metadata and `ragwatch_judge_cost_total` then carry money besides tokens.
     */
    pricing: z
      .object({
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code such as EUR or USD' })
          .default('EUR'),
        promptPerMillion: between(0, 1_000_000).default(0),
        completionPerMillion: between(0, 1_000_000).default(0),
        embeddingsPerMillion: between(0, 1_000_000).default(0),
      })
      .strict()
      .optional(),
  })
  .strict()
  .prefault({});

const embeddingsSection = z
  .object({
    /** Defaults to the judge's base URL. */
    baseUrl: url('set the key as embeddings.apiKey (RAGWATCH_EMBEDDINGS_API_KEY)').optional(),
    model: z.string().default('embeddings'),
    /** Defaults to the judge's API key. */
    apiKey: z.string().optional(),
    /** Inputs per request (OpenAI's API takes at most 2048). */
    batchSize: intBetween(1, 2048).default(64),
    /**
     * Embeddings requests in flight at once. Default: `judge.concurrency`, as the same server (or one sized like it)
     * answers them, so a golden build's duplicate checks keep pace with its judge calls.
     */
    concurrency: intBetween(1, MAX_CONCURRENCY).optional(),
    timeoutMs: timeoutMs().default(60_000),
    maxAttempts: attempts().default(4),
  })
  .strict()
  .prefault({});

const metricsSectionFor = (catalog: MetricCatalog) =>
  z
    .object({
      /** Metrics scored on sampled production traces: ground-truth free (no reference answer). */
      online: z
        .array(metricFor(catalog, 'online'))
        .min(1, { error: 'must name at least one metric' })
        .default(['faithfulness', 'answer_relevancy']),
      /** Prompt language: `auto` detects it per sample. */
      language: z.enum(['auto', 'es', 'en']).default('auto'),
      /**
       * Languages scored (ISO 639-1 codes, e.g. [es, en, fr]); a sample detected in another one is skipped
       * (`language_not_allowed`, counted). Empty: every language. An undetermined sample is always scored.
       */
      allowedLanguages: z
        .array(z.string().regex(/^[a-z]{2}$/, { error: 'must be ISO 639-1 codes like fr' }))
        .default([]),
      /** Prefix of score names written to Langfuse. */
      scorePrefix: z.string().default('ragas-'),
      answerRelevancyQuestions: intBetween(1, 10).default(3),
      /** Token budgets: longer texts are truncated deterministically and flagged. */
      maxAnswerTokens: budget().default(1500),
      maxContextTokens: budget().default(6000),
      maxReferenceTokens: budget().default(1500),
      maxQuestionTokens: budget().default(500),
      /** Noise sensitivity mode (RAGAS): wrong claims backed by `relevant` or by `irrelevant` chunks. */
      noiseSensitivityMode: z.enum(['relevant', 'irrelevant']).default('relevant'),
      thresholds: thresholdsFor(catalog, () => between(0, 1)),
    })
    .strict()
    .prefault({});

const anonymizeSection = z
  .object({
    enabled: z.boolean().default(true),
    /** Regions whose phone numbers are recognised (ISO 3166 alpha-2). */
    phoneRegions: z
      .array(z.string().regex(/^[A-Z]{2}$/, { error: 'must be ISO 3166 alpha-2 codes like ES' }))
      .default(['ES', 'GB', 'US', 'FR', 'DE', 'PT', 'IT', 'MX', 'AR', 'CO', 'CL', 'PE']),
    /** Minimum recognizer score for a span to be redacted. */
    threshold: between(0, 1).default(0.5),
    /** Minimum score of a span left after redaction that blocks the sample (`pii_residual`). */
    residualThreshold: between(0, 1).default(0.8),
    /**
     * Labels of personal identifiers added to the built-in Spanish and English ones ("nº de colegiado", "badge
     * no."): the number after one becomes `<ID_n>`.
     */
    identifierLabels: z
      .array(
        z
          .string()
          .trim()
          .max(60, { error: 'must be a label of at most 60 characters' })
          .regex(/\p{L}/u, { error: 'must be a label with at least one letter, such as "nº de colegiado"' }),
      )
      .default([]),
  })
  .strict()
  .prefault({});

const samplingSection = z
  .object({
    rate: between(0, 1).default(0.05),
    salt: z.string().min(1, { error: 'must not be empty' }).default('ragwatch-sampling-v1'),
    /** Per trace-name rates overriding `rate`. */
    rateByTraceName: z.record(z.string(), between(0, 1)).default({}),
    /**
     * Traces one tick takes at most. Default: what `maxPerHour` leaves, so a backlog drains in one run at the
     * judge's pace instead of in ticks separated by a tail that empties the judge; set it lower to spread a
     * backlog over several ticks.
     */
    maxPerTick: intBetween(1, 1_000_000).optional(),
    maxPerHour: intBetween(1, 10_000_000).default(5000),
  })
  .strict()
  .prefault({});

const filtersSection = z
  .object({
    traceNames: z.array(z.string()).default([]),
    tags: z.array(z.string()).default([]),
    environments: z.array(z.string()).default([]),
    excludeEnvironments: z.array(z.string()).default(['langfuse-*', 'sdk-experiment']),
    /** Traces with any of these tags are left out (the weekly experiment's own traffic, docs/integrations.md). */
    excludeTags: z.array(z.string()).default([EXPERIMENT_TRAFFIC_TAG]),
    metadata: z.record(z.string(), z.string()).default({}),
  })
  .strict()
  .prefault({});

const extractSection = z
  .object({
    question: z
      .object({ observation: z.string().optional(), type: z.string().optional(), path: z.string() })
      .strict()
      .optional(),
    answer: z
      .object({ observation: z.string().optional(), type: z.string().optional(), path: z.string() })
      .strict()
      .optional(),
    contexts: z
      .object({ observation: z.string().optional(), type: z.string().optional(), path: z.string() })
      .strict()
      .optional(),
  })
  .strict()
  .prefault({});

const onlineSection = z
  .object({
    enabled: z.boolean().default(true),
    schedule: cron().default('*/5 * * * *'),
    settleDelaySeconds: intBetween(0, 7 * DAY_S).default(600),
    overlapSeconds: intBetween(0, 7 * DAY_S).default(600),
    initialLookbackSeconds: intBetween(1, 90 * DAY_S).default(3600),
    maxWindowSeconds: intBetween(1, 30 * DAY_S).default(6 * 3600),
    maxAttempts: intBetween(1, 100).default(5),
    retryBackoffSeconds: intBetween(1, 7 * DAY_S).default(300),
    /**
     * Traces evaluated at once. Default: one and a half per judge slot (`judge.concurrency`), so that while some
     * traces are fetched or anonymized every slot still has a trace's calls to serve; the judge client caps its
     * own requests.
     */
    concurrency: intBetween(1, MAX_CONCURRENCY).optional(),
    /** How long a tick holds the lease that keeps replicas from ticking together; renewed while it runs. */
    leaseSeconds: intBetween(1, DAY_S).default(300),
    /** A tick running longer than this makes `/readyz` fail. */
    stuckAfterSeconds: intBetween(1, 7 * DAY_S).default(3600),
    /**
     * After each run, a sample of the traces it scored is read back from Langfuse, which validates scores after
     * accepting them and drops those that fail: a score that does not appear within `withinSeconds` is counted
     * (`ragwatch_scores_unconfirmed_total`) and its trace evaluated again.
     */
    readBack: z
      .object({
        /** Traces read back per run; 0 turns the read-back off. */
        sample: intBetween(0, 10_000).default(20),
        withinSeconds: intBetween(1, HOUR_S).default(60),
      })
      .strict()
      .prefault({}),
    /**
     * Scores each evaluated trace `ragwatch-answer-leak`: 1 when its answer holds personal data (validated types,
     * labelled identifiers) that neither the question nor the contexts held. Counted before anonymization, no
     * judge call, counts only (`ragwatch_answer_leak_*` on /metrics).
     */
    answerLeak: z.boolean().default(true),
    filters: filtersSection,
    extract: extractSection,
  })
  .strict()
  .prefault({});

const experimentTargetSection = z
  .object({
    /** `http` calls the RAG service per item; `replay` scores outputs already stored with the items. */
    mode: z.enum(['http', 'replay']).default('http'),
    url: url('send them in experiment.target.headers, e.g. Authorization: "Basic ${RAG_BASIC_AUTH}"').optional(),
    method: z.enum(['POST', 'PUT', 'GET']).default('POST'),
    /** Header values may reference the environment as `${NAME}` (keep tokens out of the file). */
    headers: z.record(z.string(), z.string()).default({}),
    /** JSON body template: a string that is exactly `{{var}}` becomes the value (question, distractors, itemId, runName). */
    body: z.unknown().default({ question: '{{question}}' }),
    /** Paths into the service's JSON response (see docs/configuration in the example config). */
    response: z
      .object({
        answer: z.string().default('answer'),
        contexts: z.string().default('contexts'),
        traceId: z.string().optional(),
      })
      .strict()
      .prefault({}),
    /** Paths into the dataset item for `replay` mode. */
    replay: z
      .object({
        answer: z.string().default('metadata.answer'),
        contexts: z.string().default('metadata.contexts'),
      })
      .strict()
      .prefault({}),
    concurrency: intBetween(1, MAX_CONCURRENCY).default(4),
    timeoutMs: timeoutMs().default(60_000),
    maxAttempts: attempts().default(3),
  })
  .strict()
  .prefault({});

const experimentSectionFor = (catalog: MetricCatalog) =>
  z
    .object({
      enabled: z.boolean().default(false),
      dataset: z.string().min(1, { error: 'must not be empty' }).default('rag-golden'),
      schedule: cron().default('0 3 * * 1'),
      runNamePrefix: z.string().min(1, { error: 'must not be empty' }).default('weekly'),
      reportsDir: z.string().default('reports'),
      /** With PostgreSQL state, where the reports live: those older than this are dropped after each run. */
      reportsRetentionDays: intBetween(1, 3650).default(365),
      /** Base URL the daemon's `/reports/…` are reached at, for the report link in the run metadata (default: the HTTP listener). */
      publicUrl: url('it is published in the run metadata').optional(),
      split: z.enum(['all', 'dev', 'test']).default('all'),
      metrics: z
        .array(metricFor(catalog, 'experiment'))
        .min(1, { error: 'must name at least one metric' })
        .default(['faithfulness', 'answer_relevancy', 'context_precision', 'context_recall']),
      /** Path to the question in the item input (a plain string input is the question itself). */
      questionPath: z.string().default('question'),
      /** Path to the reference in the expected output (a plain string is the reference itself). */
      referencePath: z.string().default('answer'),
      strataKey: z.string().default('type'),
      splitKey: z.string().default('split'),
      /** Strata judged on abstention instead of the metrics. */
      adversarialStrata: z.array(z.string()).default(['adversarial']),
      /** Anonymize items before the judge sees them (curated golden sets may turn it off). */
      anonymize: z.boolean().default(true),
      noise: z
        .object({
          enabled: z.boolean().default(false),
          distractors: intBetween(1, 20).default(2),
          /** ΔFaithfulness (clean − noisy) above this is flagged. */
          threshold: between(0, 1).default(0.15),
        })
        .strict()
        .prefault({}),
      bootstrapSamples: intBetween(1, 100_000).default(2000),
      seed: seed().default(42),
      /** How many earlier runs the trend chart shows. */
      trendRuns: intBetween(1, 100).default(8),
      /** Share of items that may fail (after retries) before the run counts as incomplete (exit 3, no verdict). */
      maxFailedShare: between(0, 1).default(0.1),
      /** The release gate's rule and the evidence it needs (docs/operations.md, "The release gate"). */
      gate: z
        .object({
          /** `point`: the mean against the threshold; `interval`: the whole interval on one side of it. */
          rule: z.enum(['point', 'interval']).default('point'),
          /** Fewer scored items of a gated metric on the gate split: not enough evidence (see the docs for 30). */
          minItems: intBetween(1, 1_000_000).default(30),
          /** Minimum abstention rate on the adversarial items of the gate split; null turns the check off. */
          minAbstention: between(0, 1).nullable().default(0.8),
          /** Fewer adversarial items judged on the gate split: the abstention check is not enough evidence. */
          minAbstentionItems: intBetween(1, 1_000_000).default(10),
          /** What "not enough evidence" exits with: its own code 4, or 1 (fail) or 0 (pass) for a CI that needs two. */
          onInconclusive: z.enum(['not-enough-evidence', 'fail', 'pass']).default('not-enough-evidence'),
        })
        .strict()
        .prefault({}),
      /** The run each run is compared with: `previous`, `last-passed` or a run name (`--compare-with`). */
      compareWith: z.string().min(1, { error: 'must not be empty' }).default('previous'),
      target: experimentTargetSection,
    })
    .strict()
    .superRefine((experiment, ctx) => {
      if (experiment.enabled && experiment.target.mode === 'http' && !experiment.target.url) {
        const message = 'is required when experiment.enabled is true (or set experiment.target.mode: replay)';
        ctx.addIssue({ code: 'custom', path: ['target', 'url'], input: experiment.target.url, message });
      }
    })
    .prefault({});

const share = () => between(0, 1);

/** `ragwatch golden …`: building, reviewing and versioning the golden set (see docs/golden-set.md). */
const goldenSection = z
  .object({
    /** Published versions are `<dataset>-v1`, `-v2`, …; point `experiment.dataset` at one. */
    dataset: z
      .string()
      .regex(/^[\w.:/-]{1,100}$/, { error: 'must be 1-100 letters, digits or . _ - : /' })
      .default('rag-golden'),
    /** Where `build` writes every candidate, rejected ones archived with their reason (default `<dataset>-candidates`). */
    candidatesDataset: z.string().min(1, { error: 'must not be empty' }).optional(),
    /** A folder of `.md` / `.txt` / `.jsonl` chunks (`--corpus` overrides it). */
    corpus: z.string().min(1, { error: 'must not be empty' }).optional(),
    /** The largest corpus file read, in bytes; larger ones are skipped and counted. */
    maxFileBytes: intBetween(KIB, 4096 * MIB).default(32 * MIB),
    /** The most bytes read from the whole corpus; files past it are skipped and counted. */
    maxCorpusBytes: intBetween(MIB, 64 * 1024 * MIB).default(1024 * MIB),
    /** Seed of every draw (seed chunks, strata, review sample, splits): same seed, same golden set. */
    seed: seed().default(42),
    /**
     * Seeds generated and filtered at once. Default: one per slot of the generator (`golden.generator.concurrency`,
     * else `judge.concurrency`), so the judge's slots, not a fixed number of seeds, set the pace.
     */
    concurrency: intBetween(1, MAX_CONCURRENCY).optional(),
    seeds: z
      .object({
        /** Seed chunks per corpus chunk (0.075: 750 per 10,000), within `min` and `max`. */
        rate: share().default(0.075),
        min: intBetween(1, 1_000_000).default(20),
        max: intBetween(1, 1_000_000).default(1000),
        /**
         * Chunk metadata key the seeds are stratified over (section, document type, date, …); `auto`: the key with
         * 2 to 50 values covering most chunks (golden/strata-key.ts), none when no key suits.
         */
        strataKey: z.string().min(1).default('auto'),
        /** Seeds each stratum gets at least (all its chunks when it has fewer); lifts the count, never past `max`. */
        minPerStratum: intBetween(0, 1000).default(1),
        /** When the strata key holds dates: group them by year, quarter or month. */
        dateBucket: z.enum(['none', 'year', 'quarter', 'month']).default('none'),
        /** Shorter chunks are not seeds. */
        minChars: intBetween(0, 100_000).default(200),
      })
      .strict()
      .prefault({}),
    /** `build --from-traces`: the retrieved contexts of production traces as the corpus. */
    traces: z
      .object({
        lookbackDays: intBetween(1, 365).default(30),
        maxTraces: intBetween(1, 1_000_000).default(2000),
      })
      .strict()
      .prefault({}),
    questionsPerSeed: intBetween(1, 5).default(2),
    /** Share of seeds per stratum (normalised). */
    mix: z
      .object({
        'single-hop': share().default(0.5),
        'multi-hop': share().default(0.25),
        adversarial: share().default(0.25),
      })
      .strict()
      // Out-of-range shares are reported on their own keys; only a mix of valid shares that are all 0 is refused here.
      .refine((m) => Object.values(m).some((x) => !(x >= 0 && x <= 1)) || Object.values(m).some((x) => x > 0), {
        error: 'the shares must not all be 0',
      })
      .prefault({}),
    /** Chunks of a multi-hop question (the seed and its neighbours). */
    multiHopChunks: intBetween(2, 4).default(2),
    filters: z
      .object({
        minQuestionChars: intBetween(1, 10_000).default(12),
        maxQuestionChars: intBetween(1, 10_000).default(300),
        maxReferenceChars: intBetween(1, 100_000).default(2000),
        /** Faithfulness of the reference to its chunks below this: rejected as unsupported. */
        referenceSupport: share().default(0.8),
        /** Faithfulness of the generator's closed-book answer to the chunks at or above this: rejected as trivial. */
        trivialFaithfulness: share().default(0.8),
        /** Cosine of two questions' embeddings at or above this: the later one is a near-duplicate. */
        duplicateSimilarity: share().default(0.95),
        /** Nearest chunks the judge checks an adversarial question against. */
        adversarialNeighbours: intBetween(1, 100).default(5),
      })
      .strict()
      .prefault({}),
    review: z
      .object({
        /** Share of accepted candidates people review in the Langfuse annotation queue. */
        share: share().default(0.15),
        /** A stratum whose reviewed items are accepted less often than this holds back its unreviewed ones. */
        minAcceptance: share().default(0.7),
        /**
         * Decisions a stratum needs before its acceptance can hold it back: below 10, one rejection moves the
         * acceptance by more than 10 points, too little to withhold a whole stratum on.
         */
        minDecisions: intBetween(1, 10_000).default(10),
        /** Annotation queue name (default `<dataset> review`). */
        queue: z.string().min(1, { error: 'must not be empty' }).optional(),
      })
      .strict()
      .prefault({}),
    /** Share of each stratum in the test split; an item keeps its split across versions. */
    testShare: share().default(0.3),
    /** A different (stronger) model for generation; every key defaults to `judge.*`. */
    generator: z
      .object({
        baseUrl: url('set the key in RAGWATCH_GENERATOR_API_KEY (golden.generator.apiKey)').optional(),
        model: z.string().min(1).optional(),
        apiKey: z.string().optional(),
        temperature: between(0, 2).optional(),
        maxTokens: tokens().optional(),
        timeoutMs: timeoutMs().optional(),
        maxAttempts: attempts().optional(),
        concurrency: intBetween(1, MAX_CONCURRENCY).optional(),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .prefault({});

const stateSection = z
  .object({
    /** The SQLite file (the default backend). */
    path: z.string().min(1, { error: 'must not be empty' }).default('ragwatch.db'),
    /** A PostgreSQL server instead (`postgres://user:password@host:5432/db`); setting it and `path` is an error. */
    url: z
      .string()
      .refine((u) => /^postgres(ql)?:\/\/[^\s]+$/i.test(u), { error: 'must be a postgres:// or postgresql:// URL' })
      .optional(),
    /** PostgreSQL: the schema holding ragwatch's tables (created at start when missing). */
    schema: z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, { error: 'must be a lower-case schema name (letters, digits, _)' })
      .default('ragwatch'),
    /** PostgreSQL: connections in the pool. */
    poolSize: intBetween(1, 100).default(5),
    /** PostgreSQL: a statement running longer is cancelled (`statement_timeout`). */
    statementTimeoutMs: intBetween(100, 10 * MINUTE_MS).default(10_000),
    /** PostgreSQL: how long to wait for a connection. */
    connectTimeoutMs: intBetween(100, 2 * MINUTE_MS).default(5_000),
    /** PostgreSQL: TLS. `url` follows the URL's `sslmode`; `require` encrypts; `verify` also checks the certificate. */
    tls: z
      .object({
        mode: z.enum(['url', 'require', 'verify']).default('url'),
        caFile: z.string().min(1).optional(),
        certFile: z.string().min(1).optional(),
        keyFile: z.string().min(1).optional(),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .prefault({});

const httpSection = z
  .object({
    /** Resolved when `run` starts: a name that does not resolve, or an address not on this host, is exit 2. */
    host: z
      .string()
      .refine(isListenHost, { error: 'must be an IP address or a host name (such as 0.0.0.0, :: or localhost)' })
      .default('0.0.0.0'),
    port: intBetween(0, 65535).default(9464),
    shutdownDeadlineSeconds: intBetween(1, HOUR_S).default(25),
    /** The bearer token `/reports/` asks for (RAGWATCH_REPORTS_TOKEN, from a Secret). */
    reportsToken: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    /**
     * The secret the report links recorded in Langfuse are signed with (RAGWATCH_REPORTS_SIGNING_SECRET, from the
     * same Secret): an HMAC of the link's path, no expiry; rotating the secret revokes every link.
     */
    reportsSigningSecret: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
    /** Serve `/reports/` to anyone who reaches the port, without token or signature. */
    reportsPublic: z.boolean().default(false),
  })
  .strict()
  .prefault({});

const logSection = z
  .object({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .strict()
  .prefault({});

/**
 * `/reports/` is served while `experiment.enabled`: behind a token and signed links, or public on purpose, never
 * open by omission.
 */
function reportAccessProblems(config: {
  experiment: { enabled: boolean };
  http: { reportsPublic: boolean; reportsToken?: string | undefined; reportsSigningSecret?: string | undefined };
}): Array<[string[], string]> {
  const { http } = config;
  if (http.reportsPublic) {
    return http.reportsToken !== undefined || http.reportsSigningSecret !== undefined
      ? [
          [
            ['http', 'reportsPublic'],
            'true serves /reports/ to anyone, which makes http.reportsToken and http.reportsSigningSecret pointless: unset them, or set reportsPublic to false',
          ],
        ]
      : [];
  }
  if (!config.experiment.enabled) return [];
  const out: Array<[string[], string]> = [];
  if (http.reportsToken === undefined)
    out.push([
      ['http', 'reportsToken'],
      "is required while experiment.enabled serves /reports/ (the reports hold the golden set, the answers and the judge's reasons): set RAGWATCH_REPORTS_TOKEN from a Secret, or http.reportsPublic: true",
    ]);
  if (http.reportsSigningSecret === undefined)
    out.push([
      ['http', 'reportsSigningSecret'],
      'is required while experiment.enabled records report links in Langfuse (they are signed with it): set RAGWATCH_REPORTS_SIGNING_SECRET from the same Secret, or http.reportsPublic: true',
    ]);
  return out;
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

function buildConfigSchema(catalog: MetricCatalog) {
  return z
    .object({
      timezone: z
        .string()
        .refine(isTimeZone, { error: 'must be an IANA time zone such as UTC or Europe/Madrid' })
        .default('UTC'),
      langfuse: langfuseSection,
      judge: judgeSection,
      embeddings: embeddingsSection,
      metrics: metricsSectionFor(catalog),
      anonymize: anonymizeSection,
      sampling: samplingSection,
      online: onlineSection,
      experiment: experimentSectionFor(catalog),
      golden: goldenSection,
      calibrate: calibrateSectionFor(catalog),
      state: stateSection,
      http: httpSection,
      log: logSection,
    })
    .strict()
    .superRefine((config, ctx) => {
      for (const [path, message] of reportAccessProblems(config)) {
        ctx.addIssue({ code: 'custom', path, input: undefined, message });
      }
      for (const [path, message] of calibrateCrossProblems(config)) {
        ctx.addIssue({ code: 'custom', path, input: config.metrics.scorePrefix, message });
      }
      // A text cut while it is read (partial words, partial personal data at the cut) must be cut again by the
      // token budgets before the judge sees it: a token takes at most 16 bytes once whitespace is collapsed.
      const budgets = (
        ['maxQuestionTokens', 'maxAnswerTokens', 'maxContextTokens', 'maxReferenceTokens'] as const
      ).filter(
        (key) =>
          Number.isInteger(config.metrics[key]) && config.metrics[key] >= 16 && config.metrics[key] <= MAX_TOKENS,
      );
      type Budget = (typeof budgets)[number];
      const bigger = (a: Budget | undefined, b: Budget) =>
        a === undefined || config.metrics[b] > config.metrics[a] ? b : a;
      const largest = budgets.reduce<Budget | undefined>(bigger, undefined);
      const least = largest === undefined ? 0 : BYTES_PER_TOKEN * config.metrics[largest];
      if (largest !== undefined && config.langfuse.maxFieldBytes >= KIB && config.langfuse.maxFieldBytes < least) {
        ctx.addIssue({
          code: 'custom',
          path: ['langfuse', 'maxFieldBytes'],
          input: config.langfuse.maxFieldBytes,
          message:
            `must be at least ${least} (${BYTES_PER_TOKEN} bytes per token of metrics.${largest}), ` +
            'so a text cut while it is read is cut again before the judge sees it',
        });
      }
    });
}

const schemas = new WeakMap<MetricCatalog, ReturnType<typeof buildConfigSchema>>();

/**
 * The configuration's schema for the metrics of `catalog` (the registry's, handed in by the composition root):
 * metric lists and thresholds are checked against it.
 */
export function configSchemaFor(catalog: MetricCatalog): ReturnType<typeof buildConfigSchema> {
  let schema = schemas.get(catalog);
  if (schema === undefined) {
    schema = buildConfigSchema(catalog);
    schemas.set(catalog, schema);
  }
  return schema;
}

export type RagwatchConfig = z.infer<ReturnType<typeof buildConfigSchema>>;
