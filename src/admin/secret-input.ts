import { read } from 'read';
import { type Command, UsageError, type Values } from './command';

/**
 * Where a command's secrets come from: a prompt without echo on the operator's terminal, or
 * standard input with `--<name>-stdin` (scripts: `printf '%s' "$PW" | ... --password-stdin`).
 * Never argv: shell history and the process list would keep it.
 */
export interface CommandIo {
  /** All of standard input. */
  readStdin(): Promise<string>;
  /** Asks on the terminal without echo; null when standard input is not a terminal. */
  prompt: ((question: string) => Promise<string>) | null;
}

/** No terminal and an empty standard input: a secret must then be piped. */
export const NO_INPUT: CommandIo = { readStdin: async () => '', prompt: null };

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The process's own standard input; the prompt writes to stderr, so stdout stays the answer. */
export function processIo(): CommandIo {
  return {
    readStdin: () => readAll(process.stdin),
    prompt: process.stdin.isTTY
      ? (question) => read({ prompt: question, silent: true, replace: '', input: process.stdin, output: process.stderr, terminal: true })
      : null,
  };
}

const label = (name: string) => `${name[0].toUpperCase()}${name.slice(1).replace(/-/g, ' ')}`;

/** Fills each secret option's value from the pipe or the prompt. */
export async function readSecrets(command: Command, values: Values, io: CommandIo): Promise<void> {
  for (const [name, spec] of Object.entries(command.options ?? {})) {
    if (spec.type !== 'secret') continue;
    // given on the command line (with a warning): nothing to read
    if (typeof values[name] === 'string') continue;
    if (values[`${name}-stdin`] === true) {
      // One trailing newline is the pipe's (echo, a file), not the secret's.
      values[name] = (await io.readStdin()).replace(/\r?\n$/, '');
    } else if (io.prompt) {
      const first = await io.prompt(`${label(name)}: `);
      if (spec.confirm && (await io.prompt(`${label(name)} again: `)) !== first) throw new UsageError(`the two ${name}s differ`);
      values[name] = first;
    } else {
      throw new UsageError(`the ${name} is read from a prompt on a terminal, or from standard input with --${name}-stdin`);
    }
  }
}
