import { Command as Program, CommanderError, Option } from 'commander';
import { type Command, type OptionSpec, UsageError, type Values } from './command';

/**
 * Parsing and `--help` of one operator command, by commander from the command's declarations
 * (docs/operator.md#conventions). The command list and unknown names stay ours (cli.ts): one
 * small program per command keeps the in-process runs of the tests independent of each other.
 */

export const PROGRAM = 'npm run -s admin --';

const placeholder = (name: string, spec: OptionSpec) => spec.arg ?? name.toUpperCase().replace(/-/g, '_');

function describe(spec: OptionSpec): string {
  const notes: string[] = [];
  if (spec.required) notes.push('required');
  if (spec.values) notes.push(`${spec.list ? 'comma-separated, each one of' : 'one of'}: ${spec.values.join(', ')}`);
  if (spec.default !== undefined) notes.push(`default: ${spec.default}`);
  return notes.length ? `${spec.help} (${notes.join('; ')})` : spec.help;
}

/** `channels:set-plan SLUG --plan P [--json]`: the arguments after the program. */
export function usageOf(command: Command): string {
  const parts = [command.name, ...(command.args ?? []).map((a) => a.name.toUpperCase())];
  for (const [name, spec] of Object.entries(command.options ?? {})) {
    const term = spec.type === 'boolean' ? `--${name}` : spec.type === 'secret' ? `--${name}-stdin` : `--${name} ${placeholder(name, spec)}`;
    parts.push(spec.required ? term : `[${term}]`);
  }
  return [...parts, '[--json]'].join(' ');
}

function program(command: Command, write: (text: string) => void): Program {
  const p = new Program(`${PROGRAM} ${command.name}`)
    .usage(usageOf(command).slice(command.name.length + 1))
    .description(command.summary)
    .helpOption('-h, --help', 'show this help')
    // Positionals are counted below, with the messages operators (and the tests) know.
    .allowExcessArguments(true)
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: write, outputError: () => undefined });
  for (const a of command.args ?? []) p.argument(`[${a.name.toUpperCase()}]`, a.help);
  for (const [name, spec] of Object.entries(command.options ?? {})) {
    if (spec.type === 'boolean') p.addOption(new Option(`--${name}`, describe(spec)));
    else if (spec.type === 'string') p.addOption(new Option(`--${name} <${placeholder(name, spec)}>`, describe(spec)));
    else {
      p.addOption(new Option(`--${name}-stdin`, `read the ${spec.help} from standard input (a pipe) instead of a prompt on the terminal`));
      // Declared, hidden: the operator's documented form (docs/operator.md) still works, with a warning.
      p.addOption(new Option(`--${name} <value>`).hideHelp());
    }
  }
  p.addOption(new Option('--json', 'print the answer as one JSON object on stdout'));
  p.addHelpText('after', `\nExamples:\n${command.examples.map((e) => `  ${PROGRAM} ${command.name} ${e}`.trimEnd()).join('\n')}\n`);
  return p;
}

export interface Parsed {
  values: Values;
  positionals: string[];
  /** Set when `--help` was asked: the text to print, and nothing to run. */
  help?: string;
  /** Advice printed on stderr before the command runs (a secret given on the command line). */
  warnings: string[];
}

/** Reads argv (after the command's name) into option values and positionals; throws UsageError. */
export function parseCommand(command: Command, argv: string[]): Parsed {
  let written = '';
  const p = program(command, (text) => {
    written += text;
  });
  try {
    p.parse(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') return { values: {}, positionals: [], help: written, warnings: [] };
    throw new UsageError(err.message.replace(/^error: /, ''));
  }
  const opts = p.opts();
  const values: Values = {};
  for (const o of p.options) values[o.long!.slice(2)] = opts[o.attributeName()] as string | boolean | undefined;
  const positionals = p.args;
  const expected = command.args ?? [];
  if (positionals.length !== expected.length) {
    throw new UsageError(expected.length ? `expected ${expected.map((a) => a.name.toUpperCase()).join(' ')}` : 'this command takes no positional arguments');
  }
  const warnings: string[] = [];
  for (const [name, spec] of Object.entries(command.options ?? {})) {
    if (spec.type === 'secret' && values[name] !== undefined) {
      if (values[`${name}-stdin`] === true) throw new UsageError(`give the ${name} once: --${name} or --${name}-stdin`);
      warnings.push(
        `warning: --${name} on the command line is kept by shell history and shown in the process list: type it at the prompt, or pipe it with --${name}-stdin`,
      );
    }
    if (spec.required && spec.type === 'string' && (typeof values[name] !== 'string' || (values[name] as string).trim() === '')) {
      throw new UsageError(`--${name} is required`);
    }
  }
  return { values, positionals, warnings };
}
