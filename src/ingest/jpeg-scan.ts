/**
 * A check of a JPEG's entropy-coded data, which libvips (and so sharp) does not finish reading: a
 * file whose middle is damaged (a bad transfer) decodes without an error, its lower part garbage,
 * while libjpeg's own `djpeg` says "Corrupt JPEG data: 342 extraneous bytes before marker 0xd9".
 * This walks every scan of a Huffman-coded JPEG (baseline, extended and progressive: SOF0, SOF1,
 * SOF2) as libjpeg's decoder does, without the inverse DCT, and reports what libjpeg warns of: a
 * code that is in no Huffman table, a scan whose data ends before its last block (a marker hit
 * inside it), bytes left between a scan's last block and the next marker, a restart marker out of
 * order. Other codings (arithmetic, lossless, hierarchical) are not checked (null).
 */

/** One Huffman table: the canonical code bounds per length (1..16) and the symbols. */
interface Huffman {
  maxcode: Int32Array;
  valptr: Int32Array;
  mincode: Int32Array;
  values: Uint8Array;
}

interface Component {
  id: number;
  h: number;
  v: number;
}

interface Frame {
  progressive: boolean;
  width: number;
  height: number;
  components: Component[];
  hmax: number;
  vmax: number;
  /** Progressive: per component, a flag per coefficient already non-zero (AC refinement). */
  nonzero: Map<number, Uint8Array>;
}

/** Bytes after a scan's last block that are let pass (libjpeg's look-ahead). */
const SLACK = 8;

/** A problem found in the data: what libjpeg would warn of. */
class Corrupt extends Error {}

/** The canonical Huffman codes of a DHT table (ITU T.81, Annex C). */
function huffman(counts: Uint8Array, values: Uint8Array): Huffman {
  const maxcode = new Int32Array(18).fill(-1);
  const valptr = new Int32Array(17);
  const mincode = new Int32Array(17);
  let code = 0;
  let k = 0;
  for (let l = 1; l <= 16; l++) {
    const n = counts[l - 1]!;
    if (n > 0) {
      valptr[l] = k;
      mincode[l] = code;
      code += n;
      k += n;
      maxcode[l] = code - 1;
    }
    code <<= 1;
  }
  return { maxcode, valptr, mincode, values };
}

/** Reads the entropy-coded bits of a scan: unstuffs 0xFF00, stops at any other marker. */
class Bits {
  private acc = 0;
  private n = 0;
  /** The marker met (its second byte), or 0 while in data. */
  marker = 0;

  constructor(
    private readonly b: Uint8Array,
    public pos: number,
  ) {}

  private fill(): void {
    if (this.marker !== 0 || this.pos >= this.b.length) {
      throw new Corrupt(
        'the scan’s data ends before its last block (premature end of data segment)',
      );
    }
    const x = this.b[this.pos]!;
    if (x === 0xff) {
      const y = this.b[this.pos + 1];
      if (y === 0x00) this.pos += 2;
      else {
        this.marker = y ?? 0xd9;
        throw new Corrupt(
          'the scan’s data ends before its last block (premature end of data segment)',
        );
      }
    } else this.pos++;
    this.acc = ((this.acc << 8) | x) >>> 0;
    this.n += 8;
  }

  bit(): number {
    if (this.n === 0) this.fill();
    this.n--;
    return (this.acc >>> this.n) & 1;
  }

  bits(count: number): number {
    let v = 0;
    for (let i = 0; i < count; i++) v = (v << 1) | this.bit();
    return v;
  }

  decode(t: Huffman | undefined): number {
    if (!t) throw new Corrupt('a scan uses a Huffman table the file does not define');
    let code = this.bit();
    for (let l = 1; l <= 16; l++) {
      if (code <= t.maxcode[l]!) return t.values[t.valptr[l]! + code - t.mincode[l]!]!;
      code = (code << 1) | this.bit();
    }
    throw new Corrupt('a code in no Huffman table (bad Huffman code)');
  }

  /** Drop the bits left in the current byte (at a restart, and after a scan's last block). */
  align(): void {
    this.n = 0;
    this.acc = 0;
  }
}

/** A scan's parameters (SOS). */
interface Scan {
  comps: Array<{ c: Component; dc: Huffman | undefined; ac: Huffman | undefined }>;
  ss: number;
  se: number;
  ah: number;
  al: number;
}

/** Blocks per line and lines of blocks of a component (its own size, rounded up). */
function blocksOf(f: Frame, c: Component): { w: number; h: number } {
  const cw = Math.ceil((f.width * c.h) / f.hmax);
  const ch = Math.ceil((f.height * c.v) / f.vmax);
  return { w: Math.ceil(cw / 8), h: Math.ceil(ch / 8) };
}

/** The blocks of one scan, in order: [component index, block index] per block, MCU by MCU. */
function* blockOrder(f: Frame, s: Scan): Generator<{ ci: number; block: number; mcuEnd: boolean }> {
  if (s.comps.length === 1) {
    const c = s.comps[0]!.c;
    const { w, h } = blocksOf(f, c);
    // padded to the MCU grid only in the interleaved case: one block per MCU here
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) yield { ci: 0, block: y * w + x, mcuEnd: true };
    return;
  }
  const mcusX = Math.ceil(f.width / (8 * f.hmax));
  const mcusY = Math.ceil(f.height / (8 * f.vmax));
  for (let my = 0; my < mcusY; my++)
    for (let mx = 0; mx < mcusX; mx++)
      for (const [ci, { c }] of s.comps.entries()) {
        const w = mcusX * c.h;
        const last = ci === s.comps.length - 1;
        for (let by = 0; by < c.v; by++)
          for (let bx = 0; bx < c.h; bx++)
            yield {
              ci,
              block: (my * c.v + by) * w + mx * c.h + bx,
              mcuEnd: last && by === c.v - 1 && bx === c.h - 1,
            };
      }
}

/** Walk one block's codes (sequential, or the progressive scan's share of it). */
function walkBlock(
  r: Bits,
  f: Frame,
  s: Scan,
  comp: Scan['comps'][number],
  block: number,
  eob: { run: number },
): void {
  if (!f.progressive) {
    const t = r.decode(comp.dc);
    if (t > 11) throw new Corrupt('a DC difference longer than 11 bits (bad Huffman code)');
    r.bits(t);
    for (let k = 1; k < 64; k++) {
      const rs = r.decode(comp.ac);
      const run = rs >> 4;
      const size = rs & 15;
      if (size === 0) {
        if (run !== 15) return;
        k += 15;
      } else {
        k += run;
        r.bits(size);
      }
      // past the 64th coefficient: libjpeg ends the block there, without a warning
      if (k > 63) return;
    }
    return;
  }
  if (s.ss === 0) {
    // DC first: a difference; DC refinement: one bit
    if (s.ah === 0) r.bits(r.decode(comp.dc));
    else r.bit();
    return;
  }
  const b: AcBlock = { r, s, ac: comp.ac, nz: f.nonzero.get(comp.c.id)!, at: block * 64, eob };
  if (s.ah === 0) acFirst(b);
  else acRefine(b);
}

/** One block of a progressive AC scan: its reader, scan, table, non-zero flags from `at`, EOB run. */
interface AcBlock {
  r: Bits;
  s: Scan;
  ac: Huffman | undefined;
  nz: Uint8Array;
  at: number;
  eob: { run: number };
}

/** A progressive AC first scan's codes for one block (libjpeg jdphuff.c, decode_mcu_AC_first). */
function acFirst({ r, s, ac, nz, at, eob }: AcBlock): void {
  if (eob.run > 0) {
    eob.run--;
    return;
  }
  for (let k = s.ss; k <= s.se; k++) {
    const rs = r.decode(ac);
    const run = rs >> 4;
    const size = rs & 15;
    if (size === 0) {
      if (run !== 15) {
        eob.run = (1 << run) - 1 + (run > 0 ? r.bits(run) : 0);
        return;
      }
      k += 15;
    } else {
      k += run;
      r.bits(size);
      if (k <= 63) nz[at + k] = 1; // past the 64th: ignored, as by libjpeg
    }
  }
}

/** A progressive AC refinement scan's codes for one block (jdphuff.c, decode_mcu_AC_refine). */
function acRefine({ r, s, ac, nz, at, eob }: AcBlock): void {
  let k = s.ss;
  if (eob.run === 0) {
    for (; k <= s.se; k++) {
      const rs = r.decode(ac);
      let run = rs >> 4;
      const size = rs & 15;
      if (size !== 0) {
        if (size !== 1)
          throw new Corrupt('a refinement with a size other than 1 (bad Huffman code)');
        r.bit();
      } else if (run !== 15) {
        eob.run = (1 << run) + (run > 0 ? r.bits(run) : 0);
        break;
      }
      // skip `run` zero coefficients, reading a correction bit for each non-zero one passed
      for (; k <= s.se; k++) {
        if (nz[at + k]) r.bit();
        else if (--run < 0) break;
      }
      if (size !== 0 && k <= s.se) nz[at + k] = 1;
    }
  }
  if (eob.run > 0) {
    for (; k <= s.se; k++) if (nz[at + k]) r.bit();
    eob.run--;
  }
}

/**
 * Walk a scan's data from `pos`; returns the position of the marker after it. Throws Corrupt for
 * a bad code, data that ends early, a restart marker out of order, or bytes left before the marker.
 */
function walkScan(b: Uint8Array, pos: number, f: Frame, s: Scan, restart: number): number {
  const r = new Bits(b, pos);
  const eob = { run: 0 };
  let mcus = 0;
  let rst = 0;
  for (const { ci, block, mcuEnd } of blockOrder(f, s)) {
    walkBlock(r, f, s, s.comps[ci]!, block, eob);
    if (!mcuEnd) continue;
    mcus++;
    if (restart > 0 && mcus % restart === 0) {
      r.align();
      // the restart marker comes next (fill bytes 0xFF may precede it)
      let p = r.pos;
      while (b[p] === 0xff && b[p + 1] === 0xff) p++;
      if (b[p] !== 0xff || b[p + 1] !== 0xd0 + (rst & 7)) {
        // the last MCU need not be followed by a restart marker
        if (atEnd(f, s, mcus)) break;
        throw new Corrupt('a restart marker missing or out of order');
      }
      r.pos = p + 2;
      rst++;
      eob.run = 0;
    }
  }
  r.align();
  let p = r.marker !== 0 ? r.pos : r.pos;
  let extra = 0;
  for (;;) {
    if (p >= b.length) throw new Corrupt('the file ends inside a scan');
    if (b[p] === 0xff) {
      while (b[p + 1] === 0xff) p++;
      const m = b[p + 1];
      if (m !== undefined && m !== 0x00 && !(m >= 0xd0 && m <= 0xd7)) break;
    }
    p++;
    extra++;
  }
  // libjpeg reads ahead into its bit buffer and drops up to 8 bytes at a scan's end unremarked; a
  // few such bytes are a common encoder quirk in files that display correctly
  if (extra > SLACK)
    throw new Corrupt(
      `${extra} bytes left between a scan's last block and the next marker (extraneous bytes before marker 0x${b[p + 1]!.toString(16)})`,
    );
  return p;
}

/** Whether `mcus` is every MCU of the scan. */
function atEnd(f: Frame, s: Scan, mcus: number): boolean {
  if (s.comps.length === 1) {
    const { w, h } = blocksOf(f, s.comps[0]!.c);
    return mcus >= w * h;
  }
  return mcus >= Math.ceil(f.width / (8 * f.hmax)) * Math.ceil(f.height / (8 * f.vmax));
}

/** The frame of a SOF0/1/2 segment (`b[pos..]` its payload). */
function frameOf(b: Uint8Array, pos: number, progressive: boolean): Frame {
  const height = (b[pos + 1]! << 8) | b[pos + 2]!;
  const width = (b[pos + 3]! << 8) | b[pos + 4]!;
  const n = b[pos + 5]!;
  const components: Component[] = [];
  for (let i = 0; i < n; i++) {
    const q = pos + 6 + i * 3;
    components.push({ id: b[q]!, h: b[q + 1]! >> 4, v: b[q + 1]! & 15 });
  }
  if (width === 0 || height === 0 || components.some((c) => c.h < 1 || c.v < 1))
    throw new Corrupt('a frame header with no size or no sampling factors');
  const hmax = Math.max(...components.map((c) => c.h));
  const vmax = Math.max(...components.map((c) => c.v));
  const f: Frame = { progressive, width, height, components, hmax, vmax, nonzero: new Map() };
  if (progressive)
    for (const c of components) {
      const { w, h } = blocksOf(f, c);
      // interleaved DC scans address the MCU grid: room for its padding blocks too
      const grid = Math.ceil(width / (8 * hmax)) * c.h * Math.ceil(height / (8 * vmax)) * c.v;
      f.nonzero.set(c.id, new Uint8Array(Math.max(w * h, grid) * 64));
    }
  return f;
}

/**
 * What libjpeg would warn of in the entropy-coded data of `bytes` (a JPEG), or null when every
 * scan reads to its end and is followed at once by a marker (or when its coding is not one this
 * reads). Never throws.
 */
export function jpegScanProblem(bytes: Uint8Array): string | null {
  try {
    return walk(bytes);
  } catch (err) {
    if (err instanceof Corrupt) return err.message;
    return null;
  }
}

function walk(b: Uint8Array): string | null {
  if (b[0] !== 0xff || b[1] !== 0xd8) return null;
  const dc = new Map<number, Huffman>();
  const ac = new Map<number, Huffman>();
  let frame: Frame | null = null;
  let restart = 0;
  let pos = 2;
  while (pos + 4 <= b.length) {
    if (b[pos] !== 0xff) return null; // not at a marker: the header reader reports it
    const m = b[pos + 1]!;
    if (m === 0xff) {
      pos++;
      continue;
    }
    if (m === 0xd9) return null; // EOI: every scan read
    const len = (b[pos + 2]! << 8) | b[pos + 3]!;
    const seg = pos + 4;
    if (m === 0xc4) readTables(b, seg, seg + len - 2, dc, ac);
    else if (m === 0xc0 || m === 0xc1 || m === 0xc2) frame = frameOf(b, seg, m === 0xc2);
    else if ((m >= 0xc3 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc) || m === 0xcc)
      return null; // lossless, hierarchical or arithmetic coding: not checked
    else if (m === 0xdd) restart = (b[seg]! << 8) | b[seg + 1]!;
    else if (m === 0xda) {
      if (!frame) return null;
      const scan = scanOf(b, seg, frame, dc, ac);
      pos = walkScan(b, pos + 2 + len, frame, scan, restart);
      continue;
    }
    pos += 2 + len;
  }
  return null;
}

function readTables(
  b: Uint8Array,
  pos: number,
  end: number,
  dc: Map<number, Huffman>,
  ac: Map<number, Huffman>,
): void {
  while (pos < end) {
    const tc = b[pos]! >> 4;
    const th = b[pos]! & 15;
    const counts = b.subarray(pos + 1, pos + 17);
    const n = counts.reduce((a, x) => a + x, 0);
    const values = b.slice(pos + 17, pos + 17 + n);
    (tc === 0 ? dc : ac).set(th, huffman(counts, values));
    pos += 17 + n;
  }
}

function scanOf(
  b: Uint8Array,
  pos: number,
  f: Frame,
  dc: Map<number, Huffman>,
  ac: Map<number, Huffman>,
): Scan {
  const n = b[pos]!;
  const comps: Scan['comps'] = [];
  for (let i = 0; i < n; i++) {
    const id = b[pos + 1 + i * 2]!;
    const t = b[pos + 2 + i * 2]!;
    const c = f.components.find((x) => x.id === id);
    if (!c) throw new Corrupt('a scan of a component the frame does not have');
    comps.push({ c, dc: dc.get(t >> 4), ac: ac.get(t & 15) });
  }
  const q = pos + 1 + n * 2;
  return { comps, ss: b[q]!, se: b[q + 1]!, ah: b[q + 2]! >> 4, al: b[q + 2]! & 15 };
}
