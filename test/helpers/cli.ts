import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runCommand, type CliOutput } from '../../src/admin/cli';
import type { CommandIo } from '../../src/admin/secret-input';
import type { Container } from '../../src/container';

/** The operator's command line, in process (fast), with the same parsing and output as the binary. */
export async function admin(c: Container, ...argv: string[]): Promise<CliOutput> {
  return runCommand(c, 'tester', argv);
}

/** In process, with `stdin` as the piped standard input (no terminal: secrets need `--<name>-stdin`). */
export async function adminWithInput(c: Container, stdin: string, ...argv: string[]): Promise<CliOutput> {
  const io: CommandIo = { readStdin: async () => stdin, prompt: null };
  return runCommand(c, 'tester', argv, io);
}

/** Runs a command and parses its --json output, failing loudly on a non-zero exit. */
export async function adminJson<T = Record<string, any>>(c: Container, ...argv: string[]): Promise<T> {
  const out = await runCommand(c, 'tester', [...argv, '--json']);
  if (out.code !== 0) throw new Error(`admin ${argv.join(' ')} exited ${out.code}: ${out.stderr}`);
  return JSON.parse(out.stdout) as T;
}

const ROOT = join(__dirname, '..', '..');
const CLI = ['-r', '@swc-node/register', join(ROOT, 'src/admin/cli.ts')];

function childEnv(databaseUrl: string | null, env: Record<string, string>): NodeJS.ProcessEnv {
  // null: no DATABASE_URL, as in a terminal beside `npm start` on the embedded database.
  const out: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  if (databaseUrl === null) delete out.DATABASE_URL;
  else out.DATABASE_URL = databaseUrl;
  return out;
}

/** The real binary, as an operator runs it, against a database URL; `input` is piped to its stdin. */
export async function adminProcess(databaseUrl: string | null, argv: string[], env: Record<string, string> = {}, input?: string): Promise<CliOutput> {
  const run = promisify(execFile)(process.execPath, [...CLI, ...argv], { cwd: ROOT, env: childEnv(databaseUrl, env) });
  if (input !== undefined) run.child.stdin!.end(input);
  try {
    const { stdout, stderr } = await run;
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The real binary on a terminal (a pseudo-terminal made by util-linux `script`): each time the
 * output so far matches the next prompt, the matching answer is typed. Returns everything the
 * terminal showed (stdout and stderr share it, as on a screen) and the exit code.
 */
export async function adminOnTerminal(databaseUrl: string, argv: string[], dialogue: [RegExp, string][]): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, ...CLI, ...argv].map(quote).join(' ');
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: ROOT, env: childEnv(databaseUrl, {}) });
  let screen = '';
  let next = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    // Without the cursor moves the prompt library draws with.
    screen += chunk.toString('utf8').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
    while (next < dialogue.length && dialogue[next][0].test(screen.slice(screen.lastIndexOf('\n') + 1))) child.stdin.write(`${dialogue[next++][1]}\n`);
  });
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  return { code, screen };
}
