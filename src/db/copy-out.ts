import { StringDecoder } from 'node:string_decoder';
import type { EntityManager } from '@mikro-orm/postgresql';

/** One row of `COPY ... TO STDOUT` in text format: each column's text, null for SQL NULL. */
export type CopyRow = (string | null)[];

/** The backslash sequences PostgreSQL writes in COPY text output (it never writes octal ones). */
const ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** A row's line (no newline) split into its fields, NULL as null and backslash sequences decoded. */
function parseLine(line: string): CopyRow {
  const fields: CopyRow = line.split('\t');
  if (!line.includes('\\')) return fields;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field === '\\N') fields[i] = null;
    else if (field.includes('\\')) fields[i] = field.replace(/\\(.)/gs, (_, c: string) => ESCAPES[c] ?? c);
  }
  return fields;
}

/** The part of a pg Connection this module writes to. */
interface PgConnection {
  query(text: string): void;
  sendCopyFail(message: string): void;
}

/**
 * A pg "submittable" (what pg's Client.query accepts besides a Query) for `COPY ... TO STDOUT`:
 * pg 8 hands the CopyData messages to the active query but has no API of its own for them.
 */
class CopyOutQuery {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (err: unknown) => void;
  private readonly decoder = new StringDecoder('utf8');
  private rest = '';
  private rows = 0;
  /** Thrown by onRow: kept until the server has finished the COPY, then the COPY fails with it. */
  private failure: unknown = null;

  constructor(
    private readonly text: string,
    private readonly onRow: (row: CopyRow) => void,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: PgConnection): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    if (this.failure !== null) return;
    // PostgreSQL sends one message per row; rows are split on newlines all the same (a newline in
    // a value is written as \n), so any chunking would do.
    const text = this.rest + this.decoder.write(message.chunk);
    try {
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        this.onRow(parseLine(text.slice(start, end)));
        this.rows += 1;
        start = end + 1;
      }
      this.rest = text.slice(start);
    } catch (err) {
      this.failure = err;
    }
  }

  handleCopyInResponse(connection: PgConnection): void {
    connection.sendCopyFail('this query only reads');
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}

  handleReadyForQuery(): void {
    if (this.failure !== null) this.reject(this.failure);
    else if (this.rest !== '') this.reject(new Error('COPY output ended inside a row'));
    else this.resolve(this.rows);
  }

  /** A server error (the client then forgets this query) or a dead connection. */
  handleError(err: unknown): void {
    this.reject(err);
  }
}

/**
 * Runs `query` as `COPY (query) TO STDOUT` on the transaction of `em` and hands each row to
 * `onRow` as it arrives, as text: a million rows cost no objects but their strings, and PostgreSQL
 * streams them without a cursor's round trips (a fifth of the time of `fetch` batches at 500,000
 * rows). COPY takes no bind parameters: `params` are formatted into the text by the ORM's platform,
 * as `sql()` does. Works through the embedded database's socket too. Returns the number of rows.
 */
export async function copyRows(em: EntityManager, query: string, params: readonly unknown[], onRow: (row: CopyRow) => void): Promise<number> {
  const trx = em.getTransactionContext<{ client: { acquireConnection(): Promise<{ query(q: CopyOutQuery): unknown }> } }>();
  if (!trx) throw new Error('copyRows runs on a transaction');
  const text = `copy (${em
    .getConnection()
    .getPlatform()
    .formatQuery(query, params as unknown[])}) to stdout`;
  // knex's transaction client hands back the one pg Client the transaction runs on.
  const client = await trx.client.acquireConnection();
  const copy = new CopyOutQuery(text, onRow);
  client.query(copy);
  return copy.done;
}
