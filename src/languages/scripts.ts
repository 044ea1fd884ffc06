/**
 * The ISO 15924 script codes a language pack's `scripts` may name: those D5 tells apart
 * (audit/language-units.ts): Latin, Cyrillic, Han (`Hans`, `Hant`, `Hani`), kana, Hangul, and the
 * Unicode scripts with letters that this Node's Unicode knows (ECMAScript's `\p{sc=…}`).
 */

/** The codes D5 names itself (Latin by franc, Han by its characters, kana, Hangul, Cyrillic). */
const NAMED_SCRIPTS = [
  'Latn',
  'Cyrl',
  'Hans',
  'Hant',
  'Hani',
  'Jpan',
  'Hira',
  'Kana',
  'Kore',
  'Hang',
] as const;

/** Every other Unicode script with letters, by ISO 15924 code. */
const OTHER_CODES = (
  'Adlm Aghb Ahom Arab Armi Armn Avst Bali Bamu Bass Batk Beng Berf Bhks Bopo Brah Brai Bugi ' +
  'Buhd Cakm Cans Cari Cham Cher Chrs Copt Cpmn Cprt Deva Diak Dogr Dsrt Dupl Egyp Elba Elym ' +
  'Ethi Gara Geor Glag Gong Gonm Goth Gran Grek Gujr Gukh Guru Hano Hatr Hebr Hluw Hmng Hmnp ' +
  'Hung Ital Java Kali Kawi Khar Khmr Khoj Kits Knda Krai Kthi Lana Laoo Lepc Limb Lina Linb ' +
  'Lisu Lyci Lydi Mahj Maka Mand Mani Marc Medf Mend Merc Mero Mlym Modi Mong Mroo Mtei Mult ' +
  'Mymr Nagm Nand Narb Nbat Newa Nkoo Nshu Ogam Olck Onao Orkh Orya Osge Osma Ougr Palm Pauc ' +
  'Perm Phag Phli Phlp Phnx Plrd Prti Rjng Rohg Runr Samr Sarb Saur Sgnw Shaw Shrd Sidd Sidt ' +
  'Sind Sinh Sogd Sogo Sora Soyo Sund Sunu Sylo Syrc Tagb Takr Tale Talu Taml Tang Tavt Tayo ' +
  'Telu Tfng Tglg Thaa Thai Tibt Tirh Tnsa Todr Tols Toto Tutg Ugar Vaii Vith Wara Wcho Xpeo ' +
  'Xsux Yezi Yiii Zanb'
).split(' ');

/** The other scripts this Node's Unicode knows, each with the test of one of its characters. */
export const OTHER_SCRIPTS: ReadonlyArray<[string, RegExp]> = OTHER_CODES.flatMap(
  (code): Array<[string, RegExp]> => {
    try {
      return [[code, new RegExp(`\\p{sc=${code}}`, 'u')]];
    } catch {
      return [];
    }
  },
);

/** Every code a pack's `scripts` may name (the same on every Node, for the committed JSON Schema). */
export const SCRIPT_CODES: readonly [string, ...string[]] = [...NAMED_SCRIPTS, ...OTHER_CODES];
