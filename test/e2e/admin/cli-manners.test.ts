import request from 'supertest';
import { COMMANDS } from '../../../src/admin/cli';
import { parseCommand } from '../../../src/admin/command-parser';
import { admin, adminOnTerminal, adminProcess, adminWithInput } from '../../helpers/cli';
import { startTestApp, type TestApp } from '../../helpers/test-app';

/**
 * The operator command line's manners: every command's --help lists each option with its allowed
 * values and examples that really parse; a password is never taken from the command line but
 * read from a prompt on a terminal or from a pipe.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** Words of an example as a shell splits them, without a `< file` redirection or a `# comment`. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    if (m[3]?.startsWith('#')) break;
    words.push(m[1] ?? m[2] ?? m[3]);
  }
  const redirect = words.indexOf('<');
  return redirect >= 0 ? words.slice(0, redirect) : words;
}

/** An option's entry in --help: its line and the wrapped lines under it, joined. */
function optionHelp(help: string, flag: string): string {
  const lines = help.split('\n');
  const at = lines.findIndex((l) => l.trimStart().startsWith(`${flag} `) || l.trim() === flag);
  if (at < 0) return '';
  const rest = lines.slice(at + 1);
  const end = rest.findIndex((l) => !/^\s{6,}\S/.test(l));
  return [lines[at], ...rest.slice(0, end < 0 ? rest.length : end)].map((l) => l.trim()).join(' ');
}

async function signIn(email: string, password: string): Promise<string | undefined> {
  const res = await request(t.app)
    .post('/graphql')
    .send({
      query: 'mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
      variables: { e: email, p: password },
    });
  return res.body.data?.login?.token;
}

describe('--help of each command', () => {
  test.each(COMMANDS.map((c) => [c.name, c] as const))('%s lists its arguments, every option with its allowed values, and examples', async (name, command) => {
    const out = await admin(t.c, name, '--help');
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toContain(`Usage: npm run -s admin -- ${name}`);
    for (const a of command.args ?? []) expect(out.stdout).toMatch(new RegExp(`^\\s+${a.name.toUpperCase()}\\s+\\S`, 'm'));
    for (const [option, spec] of Object.entries(command.options ?? {})) {
      const text = optionHelp(out.stdout, spec.type === 'secret' ? `--${option}-stdin` : `--${option}`);
      expect(text).toMatch(/^--\S+( <[^>]+>)? +\S/);
      for (const value of spec.values ?? []) expect(text).toContain(value);
      if (spec.required) expect(text).toContain('(required');
    }
    expect(command.examples.length).toBeGreaterThan(0);
    for (const example of command.examples) expect(out.stdout).toContain(`npm run -s admin -- ${name} ${example}`.trimEnd());
  });

  test.each(COMMANDS.flatMap((c) => c.examples.map((e) => [c.name, e, c] as const)))('%s %s: the example parses', (_name, example, command) => {
    expect(() => parseCommand(command, shellWords(example))).not.toThrow();
  });

  it('answers --help without a database, as the real binary', async () => {
    const out = await adminProcess('postgres://nobody@127.0.0.1:1/none', ['channels:create', '--help']);
    expect(out.code).toBe(0);
    expect(out.stdout.replace(/\s+/g, ' ')).toContain(
      '--plan <P> live slots: free 1, pro 3, broadcaster 10; ingest needs pro or broadcaster (one of: free, pro, broadcaster; default: free)',
    );
  }, 60_000);
});

describe("a studio user's password", () => {
  it('is never required on the command line; given there (the documented --password P), it works with a warning naming the ways that keep it out of history', async () => {
    const out = await admin(t.c, 'studio-users:create', '--email', 'argv@example.com', '--password', 'correct horse battery');
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('warning: --password on the command line is kept by shell history');
    expect(out.stderr).toContain('--password-stdin');
    expect(out.stdout + out.stderr).not.toContain('correct horse battery');
    expect(await signIn('argv@example.com', 'correct horse battery')).toMatch(/^st_/);
  });

  it('is refused when given both ways', async () => {
    const out = await adminWithInput(t.c, 'piped\n', 'studio-users:create', '--email', 'twice@example.com', '--password', 'x1234567890', '--password-stdin');
    expect(out).toMatchObject({ code: 2, stderr: expect.stringContaining('give the password once') });
  });

  it('without a terminal, must be piped', async () => {
    const out = await admin(t.c, 'studio-users:create', '--email', 'nopipe@example.com');
    expect(out).toMatchObject({ code: 2, stderr: expect.stringContaining('read from a prompt on a terminal, or from standard input with --password-stdin') });
  });

  it('is read from a pipe with --password-stdin (its trailing newline dropped): the user signs in with it', async () => {
    const out = await adminWithInput(t.c, 'piped password 1\n', 'studio-users:create', '--email', 'piped@example.com', '--password-stdin', '--json');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).user.email).toBe('piped@example.com');
    expect(await signIn('piped@example.com', 'piped password 1')).toMatch(/^st_/);
  });

  it('is read from a pipe by the real binary, and never printed', async () => {
    const out = await adminProcess(t.db.url, ['studio-users:create', '--email', 'process@example.com', '--password-stdin', '--json'], {}, 'process-password\n');
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout).user.email).toBe('process@example.com');
    expect(out.stdout + out.stderr).not.toContain('process-password');
    expect(await signIn('process@example.com', 'process-password')).toMatch(/^st_/);
  }, 60_000);

  it('is asked twice, without echo, on a terminal', async () => {
    const typed = 'typed-at-the-prompt';
    const run = await adminOnTerminal(
      t.db.url,
      ['studio-users:create', '--email', 'typed@example.com'],
      [
        [/Password: $/, typed],
        [/Password again: $/, typed],
      ],
    );
    expect(run.code).toBe(0);
    expect(run.screen).toContain('email: typed@example.com');
    expect(run.screen).not.toContain(typed);
    expect(await signIn('typed@example.com', typed)).toMatch(/^st_/);

    const differ = await adminOnTerminal(
      t.db.url,
      ['studio-users:create', '--email', 'differ@example.com'],
      [
        [/Password: $/, 'first-password'],
        [/Password again: $/, 'second-password'],
      ],
    );
    expect(differ.code).toBe(2);
    expect(differ.screen).toContain('the two passwords differ');
    expect(await signIn('differ@example.com', 'first-password')).toBeUndefined();
  }, 60_000);
});
