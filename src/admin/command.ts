import type { Container } from '../container';
import type { Actor } from '../domain/audit/audit.log';
import { DomainError } from '../domain/errors';
import { DATE_RANGE_TEXT, isStorableInstant } from '../domain/date-range';

/**
 * One option of a command, declared where the command is: the parser (commander) and `--help`
 * are built from it, so a new option is one line in the command's file.
 */
export interface OptionSpec {
  /** `secret`: never taken from the command line; read from a prompt or `--<name>-stdin`. */
  type: 'string' | 'boolean' | 'secret';
  /** What it means, for `--help`. */
  help: string;
  /** Placeholder of the value in usage lines (`S`, `DATE`); the upper-cased name by default. */
  arg?: string;
  /** Closed vocabularies, listed by `--help`. The domain still judges a value (exit 1, its code). */
  values?: readonly string[];
  /** A comma-separated list of `values`. */
  list?: boolean;
  /** Shown in usage without brackets; a missing one is a usage error (exit 2). */
  required?: boolean;
  /** The value used when the option is absent, for `--help` only. */
  default?: string;
  /** A secret typed at the prompt is asked twice. */
  confirm?: boolean;
}

export type Options = Record<string, OptionSpec>;
export type Values = Record<string, string | boolean | undefined>;

/** A positional argument, all of them required. */
export interface ArgSpec {
  name: string;
  help: string;
}

export interface CommandInput {
  values: Values;
  positionals: string[];
}

export interface CommandResult {
  /** Printed with --json. */
  json: Record<string, unknown>;
  /** Printed otherwise. */
  text: string;
}

export interface Command {
  name: string;
  summary: string;
  options?: Options;
  args?: ArgSpec[];
  /** What an operator types after the command's name; `--help` shows each, a test parses each. */
  examples: string[];
  run(ctx: { c: Container; actor: Actor }, input: CommandInput): Promise<CommandResult>;
}

export class UsageError extends Error {}

export function required(values: Values, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v.trim();
}

export function optional(values: Values, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

export function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function integer(values: Values, name: string): number | undefined {
  const v = optional(values, name);
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`--${name} must be an integer`);
  return Number(v);
}

export function time(values: Values, name: string): Date | undefined {
  const v = optional(values, name);
  if (v === undefined) return undefined;
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  if (Number.isNaN(d.getTime()) || !isStorableInstant(d)) {
    throw new DomainError(`invalid_${name.replace(/-/g, '_')}`, `--${name} must be an ISO 8601 date or time ${DATE_RANGE_TEXT}`);
  }
  return d;
}

/** Text output: one "key: value" line per field, for a human at a terminal. */
export function lines(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v instanceof Date ? v.toISOString() : (v ?? '-')}`)
    .join('\n');
}

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') : String(v ?? '-'));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const fmt = (vals: string[]) =>
    vals
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [fmt(columns), ...rows.map((r) => fmt(columns.map((c) => cell(r[c]))))].join('\n');
}
