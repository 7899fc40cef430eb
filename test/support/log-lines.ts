import { vi } from 'vitest';
import { logger } from '../../shared/observability/index.ts';

/** A line the shared logger (shared/observability) was asked to write: its level, message and fields, as on CloudWatch. */
export type LogLine = { level: 'INFO' | 'WARN' | 'ERROR'; message: string } & Record<string, any>;

/**
 * Captures the lines handlers log through the shared logger (silent under vitest) from now on,
 * in order; `lines(message?)` answers them (those with that message) as the JSON a Lambda writes
 * (level, message, fields).
 */
export const captureLog = (): { lines: (message?: string) => LogLine[] } => {
  const lines: LogLine[] = [];
  for (const [method, level] of [
    ['info', 'INFO'],
    ['warn', 'WARN'],
    ['error', 'ERROR'],
  ] as const)
    vi.spyOn(logger, method).mockImplementation((message: unknown, ...fields: unknown[]) => {
      lines.push(Object.assign({ level, message: String(message) }, ...(fields as object[])));
    });
  return { lines: (message) => lines.filter((line) => message === undefined || line.message === message) };
};
