/**
 * What a vendor reads from an image's bytes before it looks at the picture: its type (from the
 * magic bytes, whatever the request's media type says) and its size in pixels (PNG IHDR, GIF
 * logical screen, JPEG SOFn, WebP VP8/VP8L/VP8X). For the vendor stand-ins' image limits.
 */

/** An image's type and pixel size as its header gives them, or null when it is no known image. */
export interface ImageHeader {
  type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  width: number;
  height: number;
}

function jpegSize(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    const length = b.readUInt16BE(i + 2);
    // SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC): height then width after the precision byte.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return null;
}

function webpSize(b: Buffer): { width: number; height: number } | null {
  const chunk = b.toString('ascii', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ')
    return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return null;
}

/** The header of `b`, or null when its bytes are no PNG, JPEG, GIF or WebP. */
export function imageHeader(b: Buffer): ImageHeader | null {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47)
    return { type: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString('ascii', 0, 4) === 'GIF8')
    return { type: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    const size = jpegSize(b);
    return size && { type: 'image/jpeg', ...size };
  }
  if (
    b.length >= 30 &&
    b.toString('ascii', 0, 4) === 'RIFF' &&
    b.toString('ascii', 8, 12) === 'WEBP'
  ) {
    const size = webpSize(b);
    return size && { type: 'image/webp', ...size };
  }
  return null;
}

/** Not a base64 character (padding aside). */
const NOT_BASE64 = /[^A-Za-z0-9+/]/;

/**
 * Whether `s` is standard base64 (its letters, then at most two `=`), checked without a
 * backtracking pattern: `/^[A-Za-z0-9+/]+={0,2}$/` keeps a backtrack entry per character and
 * overflowed V8's regexp stack on an 8 MB image ("Maximum call stack size exceeded").
 */
export function isBase64(s: string): boolean {
  let end = s.length;
  while (end > 0 && s.length - end < 2 && s[end - 1] === '=') end--;
  return end > 0 && !NOT_BASE64.test(s.slice(0, end));
}
