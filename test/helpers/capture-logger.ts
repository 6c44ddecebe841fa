import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/runtime/logger.js';

export interface LogRecord {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  msg: string;
  [key: string]: unknown;
}

const LEVELS: Record<number, LogRecord['level']> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** The real logger (redaction included) writing JSON lines into memory, for tests that look at what was logged. */
export function captureLogger(level = 'debug'): { logger: Logger; records(): LogRecord[]; text(): string } {
  let text = '';
  const destination = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const logger = createLogger({ level, destination });
  return {
    logger,
    text: () => text,
    records: () =>
      text
        .split('\n')
        .filter((line) => line.trim().length > 0)
        .map((line) => {
          const raw = JSON.parse(line) as Record<string, unknown>;
          return { ...raw, level: LEVELS[raw.level as number] ?? 'info' } as LogRecord;
        }),
  };
}
