import { describe, expect, it } from 'vitest';
import { COMMAND, encodePacket, PacketReader, parseList } from './rcon.ts';
import { ingestUrl } from './upload.ts';

describe('RCON packets', () => {
  it('round-trips a packet, whatever the chunks it arrives in', () => {
    const bytes = Buffer.concat([
      encodePacket({ id: 7, type: COMMAND, body: 'list' }),
      encodePacket({ id: 8, type: 0, body: 'Ünïcode' }),
    ]);
    expect(bytes.readInt32LE(0)).toBe(14);
    const reader = new PacketReader();
    const got = [...bytes].flatMap((b) => reader.push(Buffer.from([b])));
    expect(got).toEqual([
      { id: 7, type: COMMAND, body: 'list' },
      { id: 8, type: 0, body: 'Ünïcode' },
    ]);
  });

  it('refuses a stream that is not RCON', () => {
    expect(() => new PacketReader().push(Buffer.from('HTTP/1.1 400 Bad Request\r\n'))).toThrow(/not an RCON packet/);
  });
});

describe('parseList', () => {
  it("reads vanilla's list, with and without uuids, and grouped lines", () => {
    expect(parseList('There are 2 of a max of 20 players online: Alex, Steve')).toEqual([
      { name: 'Alex', uuid: null },
      { name: 'Steve', uuid: null },
    ]);
    expect(parseList('There are 0 of a max of 20 players online: ')).toEqual([]);
    expect(parseList('There are 1 of a max of 20 players online: Alex (069A79F4-44E9-4726-A5BE-FCA90E38AAF5)')).toEqual(
      [{ name: 'Alex', uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5' }],
    );
    expect(parseList('§6There are §c2§6 out of maximum §c20§6 players online.\n§6default§r: Alex, §4Steve')).toEqual([
      { name: 'Alex', uuid: null },
      { name: 'Steve', uuid: null },
    ]);
  });
});

describe('ingestUrl', () => {
  it('takes the base URL with or without /api/v1', () => {
    expect(ingestUrl('https://stats.example.com')).toBe('https://stats.example.com/api/v1/ingest/server');
    expect(ingestUrl('https://stats.example.com/api/v1/')).toBe('https://stats.example.com/api/v1/ingest/server');
  });
});
