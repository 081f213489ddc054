// The AMF0 decoder reads bytes from anyone: every type it knows decodes, and everything else
// (unknown markers, truncation, lying counts, deep nesting, too many values) is an
// RtmpProtocolError, never another exception.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeAmf0, encodeAmf0, MAX_AMF_DEPTH, MAX_AMF_VALUES } from '../../src/rtmp/amf0.ts';
import { RtmpProtocolError } from '../../src/rtmp/protocol-error.ts';
import { amf } from '../helpers/rtmp-client.ts';

const protocolError = (payload: Buffer, reason: RegExp) => {
  assert.throws(
    () => decodeAmf0(payload),
    (error: unknown) => error instanceof RtmpProtocolError && reason.test(error.reason),
  );
};

test('every AMF0 type an encoder sends decodes', () => {
  const payload = Buffer.concat([
    amf.string('connect'),
    amf.number(1),
    amf.object({ app: amf.string('live'), flashVer: amf.string('FMLE/3.0'), audioCodecs: amf.number(3191) }),
    amf.null(),
    amf.undefined(),
    amf.boolean(true),
    amf.longString('long'),
    amf.date(86_400_000),
    amf.ecmaArray({ duration: amf.number(0), encoder: amf.string('obs') }),
    amf.strictArray([amf.number(1), amf.string('two')]),
    Buffer.from([0x0d]), // unsupported: reads as undefined
    Buffer.concat([
      Buffer.from([0x10]),
      amf.string('Klass').subarray(1),
      amf.object({ a: amf.number(1) }).subarray(1),
    ]),
  ]);
  const values = decodeAmf0(payload);
  assert.equal(values[0], 'connect');
  assert.equal(values[1], 1);
  assert.deepEqual({ ...(values[2] as object) }, { app: 'live', flashVer: 'FMLE/3.0', audioCodecs: 3191 });
  assert.equal(values[3], null);
  assert.equal(values[4], undefined);
  assert.equal(values[5], true);
  assert.equal(values[6], 'long');
  assert.equal((values[7] as Date).getTime(), 86_400_000);
  assert.deepEqual({ ...(values[8] as object) }, { duration: 0, encoder: 'obs' });
  assert.deepEqual(values[9], [1, 'two']);
  assert.equal(values[10], undefined);
  assert.deepEqual({ ...(values[11] as object) }, { a: 1 });
});

test('what the server encodes decodes to the same values', () => {
  const values = [
    '_result',
    1,
    { fmsVer: 'FMS/3,0,1,123', capabilities: 31 },
    null,
    [1, true, 'x'.repeat(70_000)],
  ];
  const decoded = decodeAmf0(encodeAmf0(...values));
  assert.deepEqual(
    decoded.map((value) =>
      value && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
        ? { ...value }
        : value,
    ),
    values,
  );
});

test('a __proto__ property is only a property', () => {
  // Object.fromEntries makes an own property named __proto__ (a literal would set the prototype).
  const properties = Object.fromEntries([['__proto__', amf.object({ polluted: amf.boolean(true) })]]);
  const [object] = decodeAmf0(amf.object(properties));
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(object), null);
  assert.ok(Object.hasOwn(object as object, '__proto__'));
});

test('unknown and unsupported markers are protocol errors', () => {
  for (const marker of [0x04, 0x07, 0x0e, 0x11, 0x12, 0x42, 0xff]) {
    protocolError(Buffer.from([marker, 0, 0, 0, 0]), /unsupported type marker/);
  }
  // An object end marker where a value should be.
  protocolError(Buffer.from([0x09]), /unsupported type marker 9/);
});

test('every truncation of a valid command is a protocol error', () => {
  const whole = Buffer.concat([
    amf.string('publish'),
    amf.number(5),
    amf.null(),
    amf.object({ a: amf.ecmaArray({ b: amf.strictArray([amf.date(1), amf.longString('z')]) }) }),
  ]);
  assert.equal(decodeAmf0(whole).length, 4);
  let errors = 0;
  for (let length = 1; length < whole.length; length++) {
    try {
      decodeAmf0(whole.subarray(0, length));
    } catch (error) {
      assert.ok(error instanceof RtmpProtocolError, `a truncation to ${length} bytes threw ${String(error)}`);
      errors += 1;
    }
  }
  // Cutting exactly between two top-level values leaves a valid, shorter command.
  assert.ok(errors >= whole.length - 4);
});

test('nesting is bounded', () => {
  let nested = amf.number(1);
  for (let i = 0; i < MAX_AMF_DEPTH; i++) nested = amf.object({ a: nested });
  decodeAmf0(nested);
  protocolError(amf.object({ a: nested }), /nested too deeply/);
  let arrays = amf.number(1);
  for (let i = 0; i < MAX_AMF_DEPTH + 1; i++) arrays = amf.strictArray([arrays]);
  protocolError(arrays, /nested too deeply/);
  // 100,000 levels do not overflow the stack.
  const open = Buffer.from([0x00, 0x01, 0x61, 0x03]);
  protocolError(
    Buffer.concat([Buffer.from([0x03]), ...Array<Buffer>(100_000).fill(open)]),
    /nested too deeply/,
  );
});

test('counts are checked against the bytes that are there', () => {
  protocolError(amf.strictArray([], 0xffffffff), /strict array longer than its message/);
  protocolError(amf.strictArray([amf.null()], 5), /strict array longer than its message/);
  // An ECMA array's count is a hint: the end marker ends it.
  assert.deepEqual(
    { ...(decodeAmf0(amf.ecmaArray({ a: amf.null() }, 0xffffffff))[0] as object) },
    { a: null },
  );
  protocolError(Buffer.from([0x02, 0xff, 0xff, 0x61]), /truncated/);
  protocolError(Buffer.from([0x0c, 0xff, 0xff, 0xff, 0xff]), /truncated/);
});

test('the values in one message are bounded', () => {
  const many = Buffer.concat(Array<Buffer>(MAX_AMF_VALUES + 1).fill(amf.null()));
  protocolError(many, /too many values/);
  decodeAmf0(many.subarray(0, MAX_AMF_VALUES));
});
