// Prints the composer's normalising of every code point, for the Rust differential test.
//
//   node tests/js/run_normalise.mjs
//
// One line per code point from U+0000 to U+10FFFF, surrogates left out (Rust has no char
// for them): `normalise` of the code point alone, between the padding spaces. Then one
// line per block of 61 consecutive code points (surrogates left out), normalised as one
// text, so that words running across code points are cut as Rust cuts them too.

import { normalise } from "../../static/composer.js";

const isSurrogate = (cp) => cp >= 0xd800 && cp <= 0xdfff;
const lines = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (!isSurrogate(cp)) lines.push(normalise(String.fromCodePoint(cp)));
}
let block = "";
let n = 0;
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (isSurrogate(cp)) continue;
  block += String.fromCodePoint(cp);
  if (++n === 61) {
    lines.push(normalise(block));
    block = "";
    n = 0;
  }
}
if (n > 0) lines.push(normalise(block));
process.stdout.write(lines.join("\n") + "\n");
