import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isUuid } from '#src/lib/uuid.ts';
import { requestIdFor } from './request-id.ts';

const req = (value?: string | string[]) =>
  ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as IncomingMessage;

describe('X-Request-ID', () => {
  it("echoes the client's id when it is 1–128 printable ASCII characters", () => {
    expect(requestIdFor(req('abc-123'))).toBe('abc-123');
    expect(requestIdFor(req('x'.repeat(128)))).toBe('x'.repeat(128));
    expect(requestIdFor(req('a b~!'))).toBe('a b~!');
  });

  it.each([
    [''],
    ['x'.repeat(129)],
    ['tab\there'],
    ['ünïcode'],
    ['\u0000'],
    ['<script>alert(1)</script>'],
    ['"quoted"'],
    ["it's"],
    ['back\\slash'],
    ['`tick`'],
    [' leading'],
  ])('replaces %j with a new UUID', (value) => {
    const id = requestIdFor(req(value));
    expect(id).not.toBe(value);
    expect(isUuid(id)).toBe(true);
  });

  it('makes a new UUID when the header is missing', () => {
    expect(isUuid(requestIdFor(req()))).toBe(true);
  });
});
