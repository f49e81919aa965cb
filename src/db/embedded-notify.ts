import type { Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export type NotificationListener = (channel: string, payload: string) => void;

/**
 * PGlite runs one PostgreSQL session for every socket connection, so a NOTIFY committed through
 * the socket comes back, as a NotificationResponse, only to the connection that committed it:
 * neither the in-process `listen` nor another connection's LISTEN hears it. This takes those
 * messages out of the committing connection's answer and hands each one to `onNotify` (the
 * in-process listeners) and to every open socket connection, as PostgreSQL would to every
 * listener. Writing a whole message between two answers is safe: PGlite runs one message at a
 * time, so no other connection is in the middle of an answer, and clients accept
 * NotificationResponse at any point.
 *
 * It reaches into pglite-socket's connection list (a private field of the pinned version); when
 * that is missing, notifications still reach `onNotify` but not other socket connections.
 */
export function relayNotifications(db: PGlite, server: PGLiteSocketServer, onNotify: NotificationListener): () => void {
  const original = db.execProtocolRawStream.bind(db);
  db.execProtocolRawStream = async (message, options) => {
    const heard: Uint8Array[] = [];
    const framer = new NotificationFramer(heard);
    try {
      await original(message, {
        ...options,
        onRawData: (data) => {
          const rest = framer.push(data);
          if (rest.length) options.onRawData(rest);
        },
      });
    } finally {
      for (const raw of heard) deliver(raw);
    }
  };
  const deliver = (raw: Uint8Array) => {
    const { channel, payload } = parseNotification(raw);
    for (const socket of openSockets(server)) socket.write(raw);
    onNotify(channel, payload);
  };
  return () => {
    db.execProtocolRawStream = original;
  };
}

function openSockets(server: PGLiteSocketServer): Socket[] {
  const handlers = (server as unknown as { handlers?: unknown }).handlers;
  if (!(handlers instanceof Set)) return [];
  const out: Socket[] = [];
  for (const h of handlers) {
    const socket = (h as { socket?: Socket | null }).socket;
    if (socket?.writable) out.push(socket);
  }
  return out;
}

function parseNotification(raw: Uint8Array): { channel: string; payload: string } {
  // 'A', int32 length, int32 sender pid, channel\0, payload\0
  const body = Buffer.from(raw.buffer, raw.byteOffset + 9, raw.byteLength - 9);
  const end = body.indexOf(0);
  return { channel: body.subarray(0, end).toString('utf8'), payload: body.subarray(end + 1, body.length - 1).toString('utf8') };
}

/**
 * Splits a stream of backend messages (arbitrarily chunked) into NotificationResponse messages,
 * collected whole, and everything else, passed on unchanged (the same chunk when it holds none).
 */
export class NotificationFramer {
  /** The current message's type byte, or -1 between messages. */
  private type = -1;
  private lengthBytes = 0;
  private length = 0;
  private remaining = 0;
  private notification: Buffer[] = [];

  constructor(private readonly heard: Uint8Array[]) {}

  push(chunk: Uint8Array): Uint8Array {
    const data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const kept: Buffer[] = [];
    let keptFrom = 0;
    let diverted = false;
    let i = 0;
    while (i < data.length) {
      const start = i;
      if (this.type < 0) {
        this.type = data[i++];
        this.lengthBytes = 0;
        this.length = 0;
        if (this.type === NOTIFICATION) kept.push(data.subarray(keptFrom, start));
      } else if (this.lengthBytes < 4) {
        this.length = this.length * 256 + data[i++];
        if (++this.lengthBytes === 4) this.remaining = this.length - 4;
      } else {
        i += Math.min(this.remaining, data.length - i);
        this.remaining -= i - start;
      }
      if (this.type === NOTIFICATION) {
        this.notification.push(data.subarray(start, i));
        diverted = true;
      }
      if (this.lengthBytes === 4 && this.remaining === 0) {
        if (this.type === NOTIFICATION) {
          this.heard.push(new Uint8Array(Buffer.concat(this.notification)));
          this.notification = [];
          keptFrom = i;
        }
        this.type = -1;
      }
    }
    if (!diverted) return chunk;
    if (this.type !== NOTIFICATION) kept.push(data.subarray(keptFrom));
    return new Uint8Array(Buffer.concat(kept));
  }
}

const NOTIFICATION = 0x41; // 'A'
