import type { ParseArgsConfig } from 'node:util';
import type { Container } from '../container';
import type { Actor } from '../domain/audit/audit.log';
import { DomainError } from '../domain/errors';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

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
  usage: string;
  options?: Options;
  /** Names of the positional arguments, all required. */
  args?: string[];
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
  return value.split(',').map((s) => s.trim()).filter(Boolean);
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
  if (Number.isNaN(d.getTime())) throw new DomainError(`invalid_${name.replace(/-/g, '_')}`, `--${name} must be an ISO 8601 date or time`);
  return d;
}

/** Text output: one "key: value" line per field, for a human at a terminal. */
export function lines(fields: Record<string, unknown>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v instanceof Date ? v.toISOString() : v ?? '-'}`)
    .join('\n');
}

export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v instanceof Date ? v.toISOString() : Array.isArray(v) ? v.join(',') : String(v ?? '-'));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const fmt = (vals: string[]) => vals.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [fmt(columns), ...rows.map((r) => fmt(columns.map((c) => cell(r[c]))))].join('\n');
}
