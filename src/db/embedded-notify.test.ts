import { NotificationFramer } from './embedded-notify';

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function notification(channel: string, payload: string): Buffer {
  const pid = Buffer.alloc(4);
  pid.writeInt32BE(42);
  return message('A', Buffer.concat([pid, Buffer.from(`${channel}\0${payload}\0`)]));
}

describe('NotificationFramer', () => {
  const rows = Buffer.concat([message('C', Buffer.from('SELECT 1\0')), message('Z', Buffer.from('I'))]);
  const notifies = [notification('svc_changes', 'tv'), notification('svc_changes', 'partner_keys')];
  const stream = Buffer.concat([
    message('C', Buffer.from('COMMIT\0')),
    notifies[0],
    message('N', Buffer.alloc(0)),
    notifies[1],
    message('Z', Buffer.from('I')),
  ]);

  it('passes a chunk without notifications through untouched', () => {
    const heard: Uint8Array[] = [];
    const chunk = new Uint8Array(rows);
    expect(new NotificationFramer(heard).push(chunk)).toBe(chunk);
    expect(heard).toEqual([]);
  });

  it('takes notifications out of the stream, however it is chunked', () => {
    const expected = Buffer.concat([message('C', Buffer.from('COMMIT\0')), message('N', Buffer.alloc(0)), message('Z', Buffer.from('I'))]);
    for (const size of [1, 2, 3, 5, 7, 13, stream.length]) {
      const heard: Uint8Array[] = [];
      const framer = new NotificationFramer(heard);
      const out: Buffer[] = [];
      for (let i = 0; i < stream.length; i += size) out.push(Buffer.from(framer.push(new Uint8Array(stream.subarray(i, i + size)))));
      expect(Buffer.concat(out)).toEqual(expected);
      expect(heard.map((h) => Buffer.from(h))).toEqual(notifies);
    }
  });
});
