// Small helpers shared by the CLI commands: strict option parsing and clear usage errors.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {}

export type Options = NonNullable<ParseArgsConfig['options']>;

export function parse<T extends Options>(argv: string[], options: T, usage: string) {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
}

export function requireString(value: unknown, name: string, usage: string): string {
  if (typeof value !== 'string' || value === '') throw new UsageError(`Missing ${name}.\n\n${usage}`);
  return value;
}

export function requireInteger(value: unknown, name: string, usage: string): number {
  const text = requireString(value, name, usage);
  if (!/^\d+$/.test(text))
    throw new UsageError(`${name} must be a whole number (got "${text}").\n\n${usage}`);
  return Number(text);
}
