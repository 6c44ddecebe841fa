import { z } from 'zod';

/** The ingestion event schemas, following Langfuse's own zod schemas (packages/shared ingestion types). */

export const idSchema = z
  .string()
  .min(1)
  .max(800)
  .refine((id) => !id.includes('\r'), { message: 'ID cannot contain carriage return characters' });

const dateTime = z.iso.datetime({ offset: true });
const optionalDateTime = dateTime.nullish();
const level = z.enum(['DEBUG', 'DEFAULT', 'WARNING', 'ERROR']).nullish();

export const TraceBody = z.object({
  id: idSchema.nullish(),
  timestamp: optionalDateTime,
  name: z.string().max(1000).nullish(),
  input: z.any().nullish(),
  output: z.any().nullish(),
  sessionId: z.string().nullish(),
  userId: z.string().nullish(),
  environment: z.string().nullish(),
  metadata: z.any().nullish(),
  release: z.string().nullish(),
  version: z.string().nullish(),
  public: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
});

const ObservationFields = z.object({
  id: idSchema,
  traceId: idSchema.nullish(),
  environment: z.string().nullish(),
  name: z.string().nullish(),
  startTime: optionalDateTime,
  endTime: optionalDateTime,
  metadata: z.any().nullish(),
  input: z.any().nullish(),
  output: z.any().nullish(),
  level,
  statusMessage: z.string().nullish(),
  parentObservationId: z.string().nullish(),
  version: z.string().nullish(),
});

const usageNumber = z.number().int().nullish();
const Usage = z
  .union([
    z.object({
      input: usageNumber,
      output: usageNumber,
      total: usageNumber,
      unit: z.string().nullish(),
      inputCost: z.number().nullish(),
      outputCost: z.number().nullish(),
      totalCost: z.number().nullish(),
    }),
    z.object({ promptTokens: usageNumber, completionTokens: usageNumber, totalTokens: usageNumber }),
  ])
  .nullish();

const UsageDetails = z
  .record(z.string(), z.union([z.number(), z.record(z.string(), z.number().nullish()), z.null()]))
  .nullish();

const GenerationFields = ObservationFields.extend({
  completionStartTime: optionalDateTime,
  model: z.string().nullish(),
  modelParameters: z
    .record(
      z.string(),
      z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.record(z.string(), z.string())]).nullish(),
    )
    .nullish(),
  usage: Usage,
  usageDetails: UsageDetails,
  costDetails: z.record(z.string(), z.number().nullish()).nullish(),
  promptName: z.string().nullish(),
  promptVersion: z.number().int().nullish(),
});

const LegacyObservationBody = GenerationFields.extend({
  id: idSchema.nullish(),
  type: z.enum(['SPAN', 'GENERATION', 'EVENT']),
});

const ScoreBodyObject = z.object({
  id: idSchema.nullish(),
  name: z.string().min(1),
  traceId: z.string().nullish(),
  sessionId: z.string().nullish(),
  datasetRunId: z.string().nullish(),
  observationId: z.string().nullish(),
  environment: z.string().nullish(),
  comment: z.string().nullish(),
  metadata: z.any().nullish(),
  source: z.enum(['API', 'EVAL', 'ANNOTATION']).nullish(),
  queueId: z.string().nullish(),
  value: z.union([z.number(), z.string()]),
  dataType: z.enum(['NUMERIC', 'CATEGORICAL', 'BOOLEAN', 'CORRECTION', 'TEXT']).nullish(),
  configId: z.string().nullish(),
});

/** Langfuse's discriminated union on dataType, expressed as one refinement: the value must fit the type. */
function checkScoreValue(
  body: { value: number | string; dataType?: string | null | undefined },
  ctx: z.RefinementCtx,
): void {
  const { value, dataType } = body;
  const fail = (message: string) => ctx.addIssue({ code: 'custom', path: ['value'], message });
  if (dataType === 'NUMERIC' && typeof value !== 'number') fail('Value must be a number for data type NUMERIC');
  if (dataType === 'BOOLEAN' && value !== 0 && value !== 1) {
    fail('Value must be a number equal to either 0 or 1 for data type BOOLEAN');
  }
  if ((dataType === 'CATEGORICAL' || dataType === 'CORRECTION') && typeof value !== 'string') {
    fail(`Value must be a string for data type ${dataType}`);
  }
  if (dataType === 'TEXT' && (typeof value !== 'string' || value.length < 1 || value.length > 500)) {
    fail('Value must be a string of 1 to 500 characters for data type TEXT');
  }
}

export const ScoreBody = ScoreBodyObject.superRefine(checkScoreValue);

const base = { id: idSchema, timestamp: dateTime, metadata: z.any().nullish() };

const generationLike = [
  'generation-create',
  'generation-update',
  'agent-create',
  'tool-create',
  'chain-create',
  'retriever-create',
  'evaluator-create',
  'embedding-create',
  'guardrail-create',
] as const;

export const IngestionEvent = z.discriminatedUnion('type', [
  z.object({ ...base, type: z.literal('trace-create'), body: TraceBody }),
  z.object({ ...base, type: z.literal('score-create'), body: ScoreBody }),
  z.object({ ...base, type: z.literal('sdk-log'), body: z.object({ log: z.any() }) }),
  z.object({ ...base, type: z.literal('event-create'), body: ObservationFields }),
  z.object({ ...base, type: z.literal('span-create'), body: ObservationFields }),
  z.object({ ...base, type: z.literal('span-update'), body: ObservationFields }),
  ...generationLike.map((type) => z.object({ ...base, type: z.literal(type), body: GenerationFields })),
  z.object({ ...base, type: z.literal('observation-create'), body: LegacyObservationBody }),
  z.object({ ...base, type: z.literal('observation-update'), body: LegacyObservationBody }),
]);
export type IngestionEvent = z.infer<typeof IngestionEvent>;

/** `POST /api/public/scores` body. */
export const CreateScoreRequest = ScoreBodyObject.extend({
  source: z.enum(['API', 'ANNOTATION']).nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
}).superRefine(checkScoreValue);
