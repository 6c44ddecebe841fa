import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** Paths pino censors in every record, besides what callers are careful not to log at all. */
export const REDACT_PATHS = [
  'secretKey',
  'publicKey',
  'apiKey',
  'password',
  'authorization',
  '*.secretKey',
  '*.apiKey',
  '*.password',
  '*.authorization',
  '*.Authorization',
  'headers.authorization',
  'headers.cookie',
  'config.langfuse.secretKey',
  'config.judge.apiKey',
  'config.embeddings.apiKey',
  'err.config',
  'err.headers',
];

export interface LoggerOptions {
  level?: string;
  /** Where JSON lines go; defaults to stderr so command output on stdout stays clean. */
  destination?: DestinationStream | NodeJS.WritableStream;
  /** Pretty output: only when asked for and the stream is a TTY outside production. */
  pretty?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const base = {
    level,
    base: { service: 'ragwatch' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (options.destination) return pino(base, options.destination as DestinationStream);
  const wantsPretty = options.pretty ?? (process.stderr.isTTY === true && process.env.NODE_ENV !== 'production');
  if (wantsPretty && prettyAvailable()) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { destination: 2, colorize: true } } });
  }
  return pino(base, pino.destination({ fd: 2, sync: true }));
}

function prettyAvailable(): boolean {
  try {
    import.meta.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** A logger that drops everything: for tests and library use. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
