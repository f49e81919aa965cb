import 'reflect-metadata';
import { userInfo } from 'node:os';
import { ConfigError, loadConfig, type Config } from '../config/config';
import { createContainer, type Container } from '../container';
import { LocalChangeFeed } from '../db/change-feed';
import { openDatabase } from '../db/database';
import { translateDbError } from '../domain/storage-errors';
import { DomainError } from '../domain/errors';
import { createLogger } from '../lib/logger';
import { type Command, UsageError } from './command';
import { parseCommand, PROGRAM, usageOf } from './command-parser';
import { channelCommands } from './commands/channels.commands';
import { demoCommands } from './commands/demo.commands';
import { partnerCommands } from './commands/partners.commands';
import { readModelCommands } from './commands/readmodel.commands';
import { sportCommands } from './commands/sport.commands';
import { webhookCommands } from './commands/webhooks.commands';
import { type CommandIo, NO_INPUT, processIo, readSecrets } from './secret-input';
import { entities } from '../entities';

export const COMMANDS: readonly Command[] = [
  ...partnerCommands,
  ...webhookCommands,
  ...sportCommands,
  ...channelCommands,
  ...demoCommands,
  ...readModelCommands,
];

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

function help(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    `usage: ${PROGRAM} <command> [options] [--json]`,
    '',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    `${PROGRAM} <command> --help   shows a command's options, their values and examples`,
  ].join('\n');
}

/**
 * Runs one operator command against a container. Exit codes: 0 done, 1 refused by the domain
 * (bad input, wrong state, not found), 2 usage error. Tests call this directly; `io` is where
 * secrets come from (the process's terminal or pipe in main()).
 */
export async function runCommand(c: Container, operator: string, argv: string[], io: CommandIo = NO_INPUT): Promise<CliOutput> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help')
    return { code: name ? 0 : 2, stdout: name ? `${help()}\n` : '', stderr: name ? '' : `${help()}\n` };
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) return { code: 2, stdout: '', stderr: `unknown command "${name}"\n\n${help()}\n` };
  const usage = `usage: ${PROGRAM} ${usageOf(command)}\n${PROGRAM} ${command.name} --help   shows every option, its values and examples`;
  try {
    const { values, positionals, help: text, warnings } = parseCommand(command, rest);
    if (text !== undefined) return { code: 0, stdout: text, stderr: '' };
    await readSecrets(command, values, io);
    const result = await command.run({ c, actor: { id: `operator:${operator}` } }, { values, positionals });
    const stdout = values.json ? JSON.stringify(result.json, null, 2) : result.text;
    return { code: 0, stdout: `${stdout}\n`, stderr: warnings.map((w) => `${w}\n`).join('') };
  } catch (err) {
    if (err instanceof DomainError) return { code: 1, stdout: '', stderr: `error: ${err.code}: ${err.message}\n` };
    if (err instanceof UsageError) return { code: 2, stdout: '', stderr: `${err.message}\n${usage}\n` };
    const known = translateDbError(err);
    if (known) return { code: 1, stdout: '', stderr: `error: ${known.code}: ${known.message}\n` };
    // Anything else: a driver's message can quote the SQL and its parameters (a key's hash), so
    // only its kind is told, on stderr and in the log.
    const kind = unexpectedKind(err);
    c?.logger.error({ command: name, err: kind }, 'operator command failed');
    return { code: 1, stdout: '', stderr: `error: internal: the command failed unexpectedly (${kind}); nothing it printed is partial\n` };
  }
}

/** The class and SQLSTATE of an unexpected error, never its message. */
function unexpectedKind(err: unknown): string {
  const e = err as { name?: unknown; code?: unknown } | null;
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  return typeof e?.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) ? `${name} ${e.code}` : name;
}

function operatorName(config: Config): string {
  try {
    return config.operator ?? userInfo().username;
  } catch {
    return 'unknown';
  }
}

async function main(argv: string[]): Promise<number> {
  const quick = await runCommandWithoutDatabase(argv);
  if (quick) return quick.code;
  const config = loadConfig();
  const db = await openDatabase(config, { entities, joinRunningServer: true });
  // A command only writes: its announcements reach the running instances through NOTIFY, and
  // nothing here caches what others write, so it need not LISTEN. Its log records go to stderr:
  // stdout is the command's answer (`--json` must parse).
  const container = createContainer(config, db.orm, { logger: createLogger('warn', process.stderr), changes: new LocalChangeFeed() });
  try {
    const out = await runCommand(container, operatorName(config), argv, processIo());
    process.stdout.write(out.stdout);
    process.stderr.write(out.stderr);
    return out.code;
  } finally {
    await container.close();
    await db.close();
  }
}

/** Help and usage errors answer without opening a database. */
async function runCommandWithoutDatabase(argv: string[]): Promise<CliOutput | null> {
  const [name] = argv;
  const known = COMMANDS.some((c) => c.name === name);
  if (known && !argv.includes('--help') && !argv.includes('-h')) return null;
  const out = await runCommand(null as unknown as Container, 'none', argv);
  process.stdout.write(out.stdout);
  process.stderr.write(out.stderr);
  return out;
}

if (require.main === module) {
  main(process.argv.slice(2))
    .then((code) => process.exit(code))
    .catch((err) => {
      process.stderr.write(err instanceof ConfigError ? `${err.message}\n` : `error: ${(err as Error).message}\n`);
      process.exit(1);
    });
}
