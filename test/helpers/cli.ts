import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runCommand, type CliOutput } from '../../src/admin/cli';
import type { Container } from '../../src/container';

/** The operator's command line, in process (fast), with the same parsing and output as the binary. */
export async function admin(c: Container, ...argv: string[]): Promise<CliOutput> {
  return runCommand(c, 'tester', argv);
}

/** Runs a command and parses its --json output, failing loudly on a non-zero exit. */
export async function adminJson<T = Record<string, any>>(c: Container, ...argv: string[]): Promise<T> {
  const out = await runCommand(c, 'tester', [...argv, '--json']);
  if (out.code !== 0) throw new Error(`admin ${argv.join(' ')} exited ${out.code}: ${out.stderr}`);
  return JSON.parse(out.stdout) as T;
}

/** The real binary, as an operator runs it, against a database URL. */
export async function adminProcess(databaseUrl: string | null, argv: string[], env: Record<string, string> = {}): Promise<CliOutput> {
  const root = join(__dirname, '..', '..');
  // null: no DATABASE_URL, as in a terminal beside `npm start` on the embedded database.
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...env };
  if (databaseUrl === null) delete childEnv.DATABASE_URL;
  else childEnv.DATABASE_URL = databaseUrl;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', join(root, 'src/admin/cli.ts'), ...argv], {
      cwd: root, env: childEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
