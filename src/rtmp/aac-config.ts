// What an AAC sequence header (the AudioSpecificConfig of ISO/IEC 14496-3 1.6.2.1, after FLV's
// 2-byte audio header) says: the profile, sample rate and channels. Undefined when malformed.

export interface AacInfo {
  profile: string;
  sampleRate: number;
  channels: number;
}

const SAMPLE_RATES = [
  96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
];

const PROFILES: Record<number, string> = {
  1: 'Main',
  2: 'LC',
  3: 'SSR',
  4: 'LTP',
  5: 'HE-AAC',
  29: 'HE-AAC v2',
  23: 'LD',
  39: 'ELD',
};

export function parseAacConfig(config: Buffer): AacInfo | undefined {
  if (config.length < 2) return undefined;
  let bits = 0;
  let position = 0;
  const read = (count: number): number | undefined => {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = config[(position + i) >> 3];
      if (byte === undefined) return undefined;
      value = value * 2 + ((byte >> (7 - ((position + i) & 7))) & 1);
    }
    position += count;
    bits = value;
    return bits;
  };
  let objectType = read(5);
  if (objectType === 31) objectType = (read(6) ?? -32) + 32;
  const rateIndex = read(4);
  const sampleRate = rateIndex === 15 ? read(24) : SAMPLE_RATES[rateIndex ?? 99];
  const channels = read(4);
  if (objectType === undefined || !sampleRate || channels === undefined) return undefined;
  return {
    profile: PROFILES[objectType] ?? `object type ${objectType}`,
    sampleRate,
    // Channel configuration 7 is 7.1 (8 channels); 0 means "described elsewhere".
    channels: channels === 7 ? 8 : channels,
  };
}
