// Reads game records with tsshogi (ShogiHome's record library) and prints what it finds,
// one JSON object a line, so that the Python tests can compare yariboard's reading with it.
//   node read.mjs FILE...   (format from the extension: .kif .kifu .ki2 .ki2u .csa .jkf .json)
// Bytes are decoded as tsshogi's users do: UTF-8, else Shift_JIS, else EUC-JP.
import { readFileSync } from "node:fs";
import { importKIF, importKI2, importCSA, importJKFString } from "tsshogi";

const readers = {
  kif: importKIF, kifu: importKIF, ki2: importKI2, ki2u: importKI2, csa: importCSA,
  jkf: importJKFString, json: importJKFString,
};

function decode(bytes) {
  for (const encoding of ["utf-8", "shift_jis", "euc-jp"]) {
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      // not this encoding
    }
  }
  return new TextDecoder("utf-8").decode(bytes);
}

function describe(record) {
  const moves = [];
  const comments = [record.first.comment];
  let ending = null;
  for (const node of record.moves.slice(1)) {
    if ("type" in node.move) {
      ending = node.move.type === "any" ? node.move.name : node.move.type;
      if (node.comment) comments.push(node.comment);
      break;
    }
    moves.push(node.move.usi);
    comments.push(node.comment);
  }
  const metadata = {};
  for (const key of record.metadata.standardMetadataKeys) {
    metadata[key] = record.metadata.getStandardMetadata(key);
  }
  const custom = {};
  for (const key of record.metadata.customMetadataKeys) {
    custom[key] = record.metadata.getCustomMetadata(key);
  }
  return { sfen: record.initialPosition.sfen, moves, comments, ending, metadata, custom };
}

for (const path of process.argv.slice(2)) {
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  const reader = readers[extension];
  let answer;
  if (!reader) {
    answer = { file: path, error: "no reader for ." + extension };
  } else {
    const result = reader(decode(readFileSync(path)));
    answer = result instanceof Error
      ? { file: path, error: String(result.message || result) }
      : { file: path, ...describe(result) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
