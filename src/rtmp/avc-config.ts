// What an H.264 sequence header (FLV's AVCDecoderConfigurationRecord, ISO/IEC 14496-15 5.2.4)
// says about the picture: profile, level and, from its first SPS (ITU-T H.264 7.3.2.1.1), the
// displayed width and height. Read once per publish (the encoder sends it once, before the
// first frame), so clarity matters more than speed. A malformed record gives undefined, never
// an exception: the publisher controls every byte.

export interface AvcInfo {
  profile: string;
  level: string;
  width: number;
  height: number;
}

const PROFILES: Record<number, string> = {
  66: 'Baseline',
  77: 'Main',
  88: 'Extended',
  100: 'High',
  110: 'High 10',
  122: 'High 4:2:2',
  244: 'High 4:4:4 Predictive',
  44: 'CAVLC 4:4:4 Intra',
};

/** Profiles whose SPS carries chroma format, bit depths and scaling matrices. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** `record` is the video message's payload after its 5-byte FLV/AVC header. */
export function parseAvcConfig(record: Buffer): AvcInfo | undefined {
  if (record.length < 8 || record[0] !== 1) return undefined;
  const spsCount = record.readUInt8(5) & 0x1f;
  if (spsCount < 1) return undefined;
  const spsLength = record.readUInt16BE(6);
  if (8 + spsLength > record.length || spsLength < 4) return undefined;
  try {
    return parseSps(unescapeRbsp(record.subarray(8, 8 + spsLength)));
  } catch {
    return undefined;
  }
}

/** Drops the emulation-prevention bytes (00 00 03 -> 00 00). */
function unescapeRbsp(nal: Buffer): Buffer {
  const out = Buffer.alloc(nal.length);
  let length = 0;
  let zeros = 0;
  for (const byte of nal) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
    out[length++] = byte;
  }
  return out.subarray(0, length);
}

class BitReader {
  private readonly bytes: Buffer;
  private position = 0;
  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }
  bit(): number {
    const byte = this.bytes[this.position >> 3];
    if (byte === undefined) throw new RangeError('past the end of the SPS');
    const value = (byte >> (7 - (this.position & 7))) & 1;
    this.position += 1;
    return value;
  }
  bits(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) value = value * 2 + this.bit();
    return value;
  }
  /** Exp-Golomb unsigned (ue(v)); longer than 31 bits is not a real SPS. */
  ue(): number {
    let zeros = 0;
    while (this.bit() === 0) {
      zeros += 1;
      if (zeros > 31) throw new RangeError('exp-Golomb code too long');
    }
    return 2 ** zeros - 1 + this.bits(zeros);
  }
  se(): number {
    const value = this.ue();
    return value % 2 === 0 ? -(value / 2) : (value + 1) / 2;
  }
}

function parseSps(sps: Buffer): AvcInfo | undefined {
  const reader = new BitReader(sps);
  reader.bits(8); // NAL header
  const profileIdc = reader.bits(8);
  const constraints = reader.bits(8);
  const levelIdc = reader.bits(8);
  reader.ue(); // seq_parameter_set_id
  let chromaFormat = 1;
  let separateColourPlanes = 0;
  if (HIGH_PROFILES.has(profileIdc)) {
    chromaFormat = reader.ue();
    if (chromaFormat === 3) separateColourPlanes = reader.bit();
    reader.ue(); // bit_depth_luma_minus8
    reader.ue(); // bit_depth_chroma_minus8
    reader.bit(); // qpprime_y_zero_transform_bypass_flag
    if (reader.bit()) {
      const lists = chromaFormat === 3 ? 12 : 8;
      for (let i = 0; i < lists; i++) if (reader.bit()) skipScalingList(reader, i < 6 ? 16 : 64);
    }
  }
  reader.ue(); // log2_max_frame_num_minus4
  const pocType = reader.ue();
  if (pocType === 0) reader.ue();
  else if (pocType === 1) {
    reader.bit();
    reader.se();
    reader.se();
    const cycle = reader.ue();
    if (cycle > 255) return undefined;
    for (let i = 0; i < cycle; i++) reader.se();
  }
  reader.ue(); // max_num_ref_frames
  reader.bit(); // gaps_in_frame_num_value_allowed_flag
  const widthInMbs = reader.ue() + 1;
  const heightInMapUnits = reader.ue() + 1;
  const frameMbsOnly = reader.bit();
  if (!frameMbsOnly) reader.bit(); // mb_adaptive_frame_field_flag
  reader.bit(); // direct_8x8_inference_flag
  let crop = [0, 0, 0, 0];
  if (reader.bit()) crop = [reader.ue(), reader.ue(), reader.ue(), reader.ue()];
  const [left = 0, right = 0, top = 0, bottom = 0] = crop;
  const monochrome = chromaFormat === 0 || separateColourPlanes === 1;
  const cropUnitX = monochrome ? 1 : chromaFormat === 3 ? 1 : 2;
  const cropUnitY = (monochrome ? 1 : chromaFormat === 1 ? 2 : 1) * (2 - frameMbsOnly);
  const width = widthInMbs * 16 - (left + right) * cropUnitX;
  const height = (2 - frameMbsOnly) * heightInMapUnits * 16 - (top + bottom) * cropUnitY;
  if (width <= 0 || height <= 0) return undefined;
  const constrained = profileIdc === 66 && (constraints & 0x40) !== 0;
  return {
    profile: constrained ? 'Constrained Baseline' : (PROFILES[profileIdc] ?? `profile ${profileIdc}`),
    level: levelIdc === 9 ? '1b' : (levelIdc / 10).toFixed(1).replace(/\.0$/, ''),
    width,
    height,
  };
}

function skipScalingList(reader: BitReader, size: number): void {
  let last = 8;
  let next = 8;
  for (let j = 0; j < size; j++) {
    if (next !== 0) next = (last + reader.se() + 256) % 256;
    last = next === 0 ? last : next;
  }
}
